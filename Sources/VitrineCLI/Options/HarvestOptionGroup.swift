import ArgumentParser

/// How to walk the pages.
struct HarvestOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Objects per page, within the API's limit (the source's maximum by default).", valueName: "n"))
    var pageSize: Int?

    @Option(
        help: ArgumentHelp("Stop after this many pages (The Met: this many times --page-size objects).", valueName: "n")
    )
    var maxPages: Int?

    @Option(help: ArgumentHelp("The first page to fetch, for page-numbered APIs.", valueName: "n"))
    var startPage: Int?

    @Option(help: ArgumentHelp("Pages (or objects) fetched at once.", valueName: "n"))
    var concurrency: Int = 4

    @Option(help: ArgumentHelp("Retries of a throttled, failing (5xx) or dropped request.", valueName: "n"))
    var retries: Int = 5

    @Option(
        help: ArgumentHelp(
            "Requests per second at most (default: the API's own ceiling: AIC 1, The Met 4, others none).",
            valueName: "n"))
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "Folder for the page cache. Accepted now; caching arrives with the harvest engine (issue 4).",
            valueName: "dir"
        )
    )
    var cache: String?

    @Flag(help: "Render from the page cache only. Not available yet: it arrives with the page cache.")
    var offline = false

    func validate() throws {
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1.") }
        if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
        if !(1...64).contains(concurrency) { throw ValidationError("--concurrency must be 1…64.") }
        if let startPage, startPage < 0 { throw ValidationError("--start-page must be 0 or more.") }
        if !(0...20).contains(retries) { throw ValidationError("--retries must be 0…20.") }
        if let rate, !(rate > 0) { throw ValidationError("--rate must be more than 0 requests a second.") }
        if offline {
            throw ValidationError("--offline needs the page cache, which this version does not have yet.")
        }
    }
}
