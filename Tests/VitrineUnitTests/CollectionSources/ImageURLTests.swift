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
    }
}
