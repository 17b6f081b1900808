import ArgumentParser

/// How to walk the pages.
struct HarvestOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Objects per page, within the API's limit (the source's maximum by default).", valueName: "n"))
    var pageSize: Int?

    @Option(help: ArgumentHelp("Stop after this many pages.", valueName: "n"))
    var maxPages: Int?

    @Option(help: ArgumentHelp("Pages fetched at once.", valueName: "n"))
    var concurrency: Int = 4

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
        if offline {
            throw ValidationError("--offline needs the page cache, which this version does not have yet.")
        }
    }
}
