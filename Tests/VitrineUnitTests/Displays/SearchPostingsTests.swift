import Testing
import VitrineTestSupport

@testable import VitrineDisplays

/// The search index's words → objects table, which keeps a word of up to eight bytes as one number: over seeded
/// random words (ASCII, accents, Chinese; around the eight-byte edge) it answers as a table keyed by the words does.
@Suite struct SearchPostingsTests {
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func `postings answer as a table of words does`(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let letters = ["a", "b", "z", "0", "9", "é", "北", "ß"]
        var vocabulary: Set<String> = []
        for _ in 0..<Int.random(in: 1...300, using: &random) {
            let length = Int.random(in: 1...11, using: &random)
            vocabulary.insert((0..<length).map { _ in letters.randomElement(using: &random) ?? "a" }.joined())
        }
        let words = Array(vocabulary)
        var postings = Postings()
        var expected: [String: [Int32]] = [:]
        for number in 0..<Int32.random(in: 1...2_000, using: &random) {
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let word = words.randomElement(using: &random) ?? "a"
                guard expected[word]?.last != number else { continue }
                postings.append(number, to: word)
                expected[word, default: []].append(number)
            }
        }
        var listed: [String] = []
        postings.forEachWord { listed.append($0) }
        #expect(listed.sorted() == expected.keys.sorted())
        for word in words + ["absent", "北北北"] {
            var objects: [Int32] = []
            postings.append(of: word, to: &objects)
            #expect(objects == expected[word] ?? [], "\(word)")
            #expect(postings.count(of: word) == (expected[word]?.count ?? 0), "\(word)")
        }
    }
}
