/// The default templates and assets, embedded in the binary so `vitrine` runs from any folder.
/// Keys are paths relative to `Templates/`; `--templates DIR` replaces any of them by name.
package enum BundledTemplates {
    package static let files: [String: String] = [
        "html/index.html.mustache": text(PackageResources.index_html_mustache),
        "html/letter.html.mustache": text(PackageResources.letter_html_mustache),
        "html/artist.html.mustache": text(PackageResources.artist_html_mustache),
        "html/object.html.mustache": text(PackageResources.object_html_mustache),
        "html/card.mustache": text(PackageResources.card_mustache),
        "html/head.mustache": text(PackageResources.head_mustache),
        "html/makers.mustache": text(PackageResources.makers_mustache),
        "html/masthead.mustache": text(PackageResources.masthead_mustache),
        "html/colophon.mustache": text(PackageResources.colophon_mustache),
        "html/pager.mustache": text(PackageResources.pager_mustache),
        "html/pager-end.mustache": text(PackageResources.pager_end_mustache),
        "html/style.css": text(PackageResources.style_css),
        "html/gallery.js": text(PackageResources.gallery_js),
        "html/favicon.svg": text(PackageResources.favicon_svg),
        "html/data.html.mustache": text(PackageResources.data_html_mustache),
        "html/browse.html.mustache": text(PackageResources.browse_html_mustache),
        "html/group.html.mustache": text(PackageResources.group_html_mustache),
        "markdown/catalog.md.mustache": text(PackageResources.catalog_md_mustache),
        "markdown/contents.md.mustache": text(PackageResources.contents_md_mustache),
        "markdown/letter.md.mustache": text(PackageResources.letter_md_mustache),
    ]

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
