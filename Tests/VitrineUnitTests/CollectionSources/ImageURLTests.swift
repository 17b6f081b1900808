import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// Which links are web addresses, and how an image can be resized, from the URL alone.
@Suite struct ImageURLTests {
    @Test(arguments: [
        ("https://iiif.micr.io/PJEZO/full/max/0/default.jpg", true),
        ("HTTP://www.rijksmuseum.nl/nl/collectie/SK-C-5", true),
        ("http://host:8080/a?b=c&d=e#f", true),
        ("https://lh3.googleusercontent.com/abc=s0", true),
        // Not percent-encoded: a catalog could not link to it as it is, so no source picks it either.
        ("https://hé.example/ä", false),
        ("https://example.org/a b", false),
        ("http://[::1]:8080/oai", true),
        ("ftp://host/file.jpg", false),
        ("javascript:alert(1)", false),
        ("https:///path-only", false),
        ("https://", false),
        ("http", false),
        ("SK-C-5", false),
        ("", false),
    ])
    func `web addresses are told from other text by one rule`(text: String, isWeb: Bool) {
        #expect(WebURL.isValid(text) == isWeb)
    }

    @Test func `a IIIF image is sized through its service, named or read from the URL`() {
        let named = ImageURL.reference(
            "https://iiif.micr.io/PJEZO/full/max/0/default.jpg", service: "https://iiif.micr.io/PJEZO/info.json")
        #expect(named?.sizing == .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: []))
        let read = ImageURL.reference("https://iiif.micr.io/PJEZO/full/max/0/default.jpg")
        #expect(read?.sizing == .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: []))
        #expect(ImageURL.reference("https://example.org/a.jpg")?.sizing == .fixed(smallURL: nil, smallWidth: nil))
        #expect(ImageURL.reference("not a url") == nil)
        // Found by a hostile check: a service's info.json was the picture on every page (a broken image).
        let described = ImageURL.reference("https://iiif.example.org/iiif/2/d14/info.json")
        #expect(described?.url == "https://iiif.example.org/iiif/2/d14/full/max/0/default.jpg")
        #expect(described?.sizing == .iiif(service: "https://iiif.example.org/iiif/2/d14", cachedWidths: []))
        for variant in ["INFO.JSON", "info.json?token=abc", "info.json#frag"] {
            let read = ImageURL.reference("https://iiif.example.org/iiif/2/d14/" + variant)
            #expect(read?.url == "https://iiif.example.org/iiif/2/d14/full/max/0/default.jpg", "\(variant)")
        }
    }

    @Test(
        arguments: [
            ("https://iiif.micr.io/PJEZO/full/max/0/default.jpg", "https://iiif.micr.io/PJEZO"),
            ("https://iiif.micr.io/PJEZO", "https://iiif.micr.io/PJEZO"),
            // Version 2's whole image names `full` twice (region and size); the identifier stays percent-encoded.
            (
                "https://images.example.org:8443/iiif/2/ark%3A%2F1234/full/full/0/default.jpg",
                "https://images.example.org:8443/iiif/2/ark%3A%2F1234"
            ),
            ("https://user@IMG.example/iiif/a/full/!200,200/!90/default.png?x=/full/#f", "https://IMG.example/iiif/a"),
            ("http://[::1]:8080/iiif/a/full/max/0/default.jpg", "http://[::1]:8080/iiif/a"),
            ("https://img.example/full/max/0/default.jpg", nil),
            ("https://img.example/a/full/max/zero/default.jpg", nil),
            ("https://img.example/a/full/max/0/default", nil),
            ("https://img.example/a/full/max/0/default.jpg/more", nil),
            ("https://img.example/a|b/full/max/0/default.jpg", nil),
            ("https://img.example:http/a/full/max/0/default.jpg", nil),
            ("https://iiif.micr.io/", nil),
            ("https://iiif.micr.io/PJEZO/info", nil),
        ] as [(String, String?)])
    func `a IIIF service is read from an image URL's path`(url: String, service: String?) {
        guard case .iiif(let read, _)? = ImageURL.reference(url)?.sizing else {
            #expect(service == nil, "\(url) is no IIIF image")
            return
        }
        #expect(read == service)
    }

    @Test(arguments: [
        ("https://example.org/a/B.JPG", true),
        ("https://example.org/a.tiff/", true),
        ("https://example.org/a.jpg?w=1", true),
        ("https://example.org/view?file=a.jpg", false),
        ("https://example.org/.jpg", false),
        ("https://example.org/page.html", false),
        ("https://example.org/handle/10.1000/182", false),
        ("https://example.org/IIIF/x", true),
        ("https://lh3.googleusercontent.com/abc=s0", true),
        ("https://IIIF.micr.io/PJEZO", true),
        ("https://example.org/a{b}.jpg", false),
        ("urn:nbn:nl:ui:13-abc.jpg", false),
    ])
    func `an image is told from other links by its URL alone`(url: String, isImage: Bool) {
        #expect(ImageURL.isImage(url) == isImage)
    }
}
