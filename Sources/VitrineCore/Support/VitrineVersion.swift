/// Vitrine's version, as `vitrine --version` and the `User-Agent` show it.
package enum VitrineVersion {
    package static let current = "0.2.0"
}
