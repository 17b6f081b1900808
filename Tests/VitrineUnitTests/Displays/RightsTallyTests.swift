import Testing
import VitrineTestSupport

@testable import VitrineDisplays

/// The data page's count of objects by rights statement.
@Suite struct RightsTallyTests {
    /// Found by a hostile check: one license under http and https made two rows, each with part of its objects.
    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func `a known statement is one row whatever address it was given in, in any order`(seed: UInt64) {
        let given: [(label: String, url: String, open: Bool)] = [
            ("CC BY 4.0", "http://creativecommons.org/licenses/by/4.0/", true),
            ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0", true),
            ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/", true),
            ("https://example.org/terms", "https://example.org/terms", false),
            ("http://example.org/terms", "http://example.org/terms", false),
            ("All rights reserved", "", false),
            ("", "", false),
        ]
        var random = SplitMix64(seed: seed)
        var tally = RightsTally()
        for entry in given.shuffled(using: &random) { tally.add(label: entry.label, url: entry.url, open: entry.open) }
        let rows = tally.statements.map { "\($0.statement.label) | \($0.statement.url) | \($0.count)" }
        #expect(
            rows == [
                "CC BY 4.0 | https://creativecommons.org/licenses/by/4.0 | 3",
                "All rights reserved |  | 1",
                "http://example.org/terms | http://example.org/terms | 1",
                "https://example.org/terms | https://example.org/terms | 1",
                " |  | 1",
            ])
        #expect(tally.open == 3)
    }
}
