import Testing
import VitrineCore

/// Issue 37, item 7: the exit status tells a scheduler whether to try again (75), fix the command (64) or look (1).
@Suite struct ExitStatusTests {
    @Test(arguments: [
        (HarvestFailure.unreachable("the connection was refused"), Int32(75)),
        (.connection("reset"), 75),
        (.throttled("HTTP 429", retryAfter: nil), 75),
        (.unavailable(503, "", retryAfter: 30), 75),
        (.quotaExhausted("the hourly quota is used up"), 75),
        (.httpStatus(404, "not found"), 1),
        (.keyRefused("check --key"), 1),
        (.undecodablePage("not XML"), 1),
        (.api("badArgument"), 1),
    ])
    func `harvest failures worth retrying later exit 75, the rest 1`(failure: HarvestFailure, status: Int32) {
        #expect(ExportError(.harvest(failure)).exitStatus == status)
    }

    @Test func `a usage mistake found late exits 64 like one the parser finds; another export busy exits 75`() {
        #expect(ExportError(.configuration("--offline cannot go with the demo")).exitStatus == 64)
        #expect(ExportError(.busy("another vitrine export is writing into Output")).exitStatus == 75)
        #expect(ExportError(.output("cannot write Output/index.html")).exitStatus == 1)
        #expect(ExportError(.store("the store is damaged")).exitStatus == 1)
        #expect(ExportError(.template("index.html.mustache does not parse")).exitStatus == 1)
    }
}
