import Testing

@testable import VitrineDisplays

/// A page's description in its head: whole up to 200 characters, else cut at a word before them.
@Suite struct SiteHeadTests {
    @Test(arguments: [0, 1, 199, 200, 201, 450])
    func `a description is cut at a space before 200 characters, counted as characters`(length: Int) {
        // "e" and a combining acute accent: one character of two scalars.
        let word = "e\u{301}" + String(repeating: "x", count: 8)
        let text = String(Array(repeating: word, count: 50).joined(separator: " ").prefix(length))
        let shortened = SiteHead.shortened(text)
        if length <= 200 {
            #expect(shortened == text)
        } else {
            #expect(shortened.hasSuffix("…") && shortened.count <= 201)
            #expect(text.hasPrefix(shortened.dropLast()) && text.dropFirst(shortened.count - 1).first == " ")
        }
    }
}
