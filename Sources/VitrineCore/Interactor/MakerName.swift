import Foundation

/// How a maker's name from an API becomes a section: what no page shows dropped (controls, bidi overrides,
/// zero-width spaces, byte-order marks), trimmed, inner whitespace collapsed, and the words museums use for "no
/// known maker" mapped to none.
package enum MakerName {
    /// Labels that mean the maker is not known (Rijksmuseum `anoniem`, English and German equivalents).
    package static let unknownLabels: Set<String> = [
        "anoniem", "anonymous", "anonym", "anon.", "onbekend", "unknown", "unknown artist", "unknown maker",
    ]

    /// The name a maker's section goes by: `normalized`, in Unicode's composed form (NFC), so that spellings that
    /// differ only by composition (`É` as one character or as `E` and an accent) are one section, named the same
    /// however its objects arrived.
    package static func sectionName(_ name: String?) -> String? {
        normalized(name).map(PrintableText.composed)
    }

    /// The cleaned display name, or `nil` when the object has no known maker.
    package static func normalized(_ name: String?) -> String? {
        guard let name else { return nil }
        // Cleaned first: `Rem\u{200B}brandt` is Rembrandt's section, and a name of invisible characters is none.
        let cleaned = PrintableText.clean(name).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !cleaned.isEmpty, !unknownLabels.contains(cleaned.lowercased()) else { return nil }
        return cleaned
    }
}
