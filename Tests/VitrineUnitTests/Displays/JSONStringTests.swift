import Foundation
import Testing

@testable import VitrineDisplays

/// The search index writes its JSON strings itself (`JSONText.append`): they must read back as the text,
/// be what `JSONEncoder` writes, and never hold `<` (the shards are scripts).
@Suite struct JSONStringTests {
    static let pieces = [
        "a", "Ø", "\"", "\\", "/", "<", ">", "&", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{8}", "\u{C}", "\u{7F}",
        "\u{2028}", "\u{2029}", "日本", "🎨", "e\u{301}", " ", "</script>",
    ]

    @Test func `strings are what JSONEncoder writes, with < escaped, and read back as the text`() throws {
        var state: UInt64 = 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<(state % 9) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += Self.pieces[Int((state >> 33) % UInt64(Self.pieces.count))]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var written: [UInt8] = []
            JSONText.append(text, to: &written)
            let expected = String(decoding: try encoder.encode(text), as: UTF8.self)
                .replacingOccurrences(of: "<", with: "\\u003c")
            #expect(String(decoding: written, as: UTF8.self) == expected, "\(text.debugDescription)")
            #expect(!written.contains(UInt8(ascii: "<")))
            #expect(try JSONDecoder().decode(String.self, from: Data(written)) == text)
        }
    }
}
