/// The default templates and assets, embedded in the binary so `vitrine` runs from any folder.
/// Keys are paths relative to `Templates/`; `--templates DIR` replaces any of them by name.
package enum BundledTemplates {
    package static let files: [String: String] = [
        "html/index.html.mustache": text(PackageResources.index_html_mustache),
        "html/style.css": text(PackageResources.style_css),
        "html/gallery.js": text(PackageResources.gallery_js),
        "markdown/catalog.md.mustache": text(PackageResources.catalog_md_mustache),
    ]

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
