import Testing
import VitrineTestSupport

@testable import VitrineCore

/// Found by a check of the index: makers whose names start with punctuation or an invisible character were filed
/// under one letter and sorted under another, so the index's letter groups came out of order and twice over.
@Suite struct SectionOrderTests {
    private static func ordered(_ makers: [String]) -> [String] {
        SectionOrder.order(makers.map { ($0, 1) }).map { makers[$0] }
    }

    @Test func `makers file and sort by their first letter, whatever stands before it`() {
        let makers = [
            "Zeno", "'t Hooft, Jan", "(Workshop of) Rubens", "\"Master of Alkmaar\"", "...Ellipsis Painter",
            "@At Maker", "\u{202E}evil maker", "\u{FEFF}BOM Maker", "北斎", "1st Master", "Anna", "Émile Bernard",
        ]
        #expect(
            Self.ordered(makers) == [
                "Anna", "@At Maker", "\u{FEFF}BOM Maker", "...Ellipsis Painter", "Émile Bernard", "\u{202E}evil maker",
                "\"Master of Alkmaar\"", "'t Hooft, Jan", "(Workshop of) Rubens", "Zeno", "1st Master", "北斎",
            ])
    }

    @Test(arguments: [
        ("Østergaard", "O"), ("Æbelø", "A"), ("Łempicka", "L"), ("Ðorđević", "D"), ("Þórarinsson", "T"),
        ("Œuvre", "O"), ("ʼt Hooft", "T"), ("北斎", "#"), ("1st Master", "#"),
    ])
    func `letters no accent folding reaches file under their Latin letter`(name: String, letter: String) {
        #expect(SortKey.letter(of: name) == letter)
    }

    @Test(arguments: 0..<20)
    func `each letter's makers stand together, A to Z and then the rest`(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let pieces = ["", "'", "(", "\"", "…", "@", "\u{202E}", "\u{FEFF}", " ", "-", "1", "é", "É", "北", "z", "Z"]
        let makers = (0..<60).map { _ in
            (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
                .joined() + (["anna", "Bob", "cleo", "Dirk", "étienne", "山"].randomElement(using: &random) ?? "anna")
        }
        let letters = Self.ordered(Array(Set(makers))).map { SortKey.letter(of: $0) }
        var seen: [String] = []
        for letter in letters where letter != seen.last {
            #expect(!seen.contains(letter), "\(letter) comes twice: \(letters)")
            seen.append(letter)
        }
        #expect(seen.filter { $0 != "#" } == seen.filter { $0 != "#" }.sorted())
        #expect(seen.firstIndex(of: "#").map { $0 == seen.count - 1 } ?? true, "# last: \(seen)")
    }
}
