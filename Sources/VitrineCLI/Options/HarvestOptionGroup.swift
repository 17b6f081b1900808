import ArgumentParser
import Foundation

/// How to walk the pages.
struct HarvestOptionGroup: ParsableArguments {
    // `parsing: .unconditional` on numbers: `--page-size -1` is read as a value and refused by `validate()`,
    // instead of being taken for a flag ("Missing value").
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Objects per page, within the API's limit (the source's maximum by default).", valueName: "n"))
    var pageSize: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop after this many pages (The Met: this many times --page-size objects).", valueName: "n")
    )
    var maxPages: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The first page to fetch, for page-numbered APIs.", valueName: "n"))
    var startPage: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pages (or objects) fetched at once.", valueName: "n"))
    var concurrency: Int = 4

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "OAI-PMH: date windows harvested at once (default: --concurrency, at most 4 for the Rijksmuseum's data "
                + "service; this raises it).",
            valueName: "n"))
    var chains: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Retries of a throttled, failing (5xx) or dropped request.", valueName: "n"))
    var retries: Int = 5

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Requests per second at most; 0 for no ceiling (default: the API's own: AIC 1, The Met 4, others none).",
            valueName: "n"))
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "Folder for the page cache (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Flag(help: "Use no page cache: fetch everything, store nothing; the collection is held in memory.")
    var noCache = false

    /// Retired: the page cache holds only the harvest under way, whatever its age.
    @Option(help: ArgumentHelp(visibility: .hidden))
    var ttl: TimeToLive?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for a connection before retrying.", valueName: "s"))
    var connectTimeout: Double = 15

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a server may stay silent while it answers before the request is retried.", valueName: "s"))
    var readTimeout: Double = 60

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds one request may take in all, however the server trickles its answer, before it is retried.",
            valueName: "s"))
    var requestTimeout: Double = 300

    @Flag(help: "Make the catalog from the collection store alone, with no request.")
    var offline = false

    @Flag(help: "Start the harvest over instead of resuming the one a run left unfinished.")
    var refresh = false

    @Flag(
        help: ArgumentHelp(
            "Harvest the whole collection again instead of only what changed since the last run (and make a "
                + "damaged collection store anew)."))
    var full = false

    /// Past this, no API has a page: a bigger number is a typo (and `Int.max` would overflow the paging).
    static let highestStartPage = 100_000_000
    static let lowestRate = 0.01

    func validate() throws {
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1.") }
        if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
        if !(1...64).contains(concurrency) { throw ValidationError("--concurrency must be 1…64.") }
        if let chains, !(1...64).contains(chains) { throw ValidationError("--chains must be 1…64.") }
        if let startPage, !(0...Self.highestStartPage).contains(startPage) {
            throw ValidationError("--start-page must be 0…\(Self.highestStartPage).")
        }
        if !(0...20).contains(retries) { throw ValidationError("--retries must be 0…20.") }
        // A ceiling under one request a minute and a half would leave a harvest waiting silently for ages.
        if let rate, !(rate == 0 || (Self.lowestRate...1_000_000).contains(rate)) {
            throw ValidationError(
                "--rate must be 0 (no ceiling) or \(Self.lowestRate)…1000000 requests a second, not \(rate).")
        }
        for (flag, value) in [
            ("--connect-timeout", connectTimeout), ("--read-timeout", readTimeout),
            ("--request-timeout", requestTimeout),
        ] where !(0.1...86_400).contains(value) {
            throw ValidationError("\(flag) must be 0.1…86400 seconds, not \(value).")
        }
        if offline && full {
            throw ValidationError("--offline makes the catalog from what is stored: it cannot go with --full.")
        }
        if offline && (noCache || refresh) {
            throw ValidationError("--offline reads the collection store: it cannot go with --no-cache or --refresh.")
        }
    }
}

/// `--ttl`: seconds, or a number with `s`, `m`, `h` or `d`.
struct TimeToLive: ExpressibleByArgument, Sendable {
    var seconds: Double

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = Substring(argument.trimmingCharacters(in: .whitespaces).lowercased())
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            unit = factor
            text = text.dropLast()
        }
        guard let value = Double(text), value >= 0 else { return nil }
        seconds = value * unit
    }

}
