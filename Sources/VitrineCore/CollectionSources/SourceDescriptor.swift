/// What a user reads about a source in `vitrine sources`, and what the summary and CSV name it by.
package struct SourceDescriptor: Sendable, Equatable {
    /// The command-line name (`demo`, `rijksmuseum-legacy`).
    package var name: String
    /// The institution, for catalog titles (`Rijksmuseum`).
    package var institution: String
    /// The base URL used when `--base-url` is not given.
    package var defaultBaseURL: String
    /// How the API pages, in a few words.
    package var paging: String
    /// The environment variable that can hold the key; `nil` when the API needs none.
    package var keyVariable: String?
    /// The filters this source honours, as flag names.
    package var filters: [String]
    /// One line on what the source is for.
    package var summary: String
    /// The request rate the API publishes or practice demands, per second; `nil` for no ceiling.
    package var requestsPerSecond: Double?
    /// Whether pages past the end are cheap (an empty page, no quota spent), so the first `concurrency` pages
    /// may be asked for before the first one tells how many there are.
    package var speculativePaging: Bool
    /// Whether the pages come with Vitrine (the demo): nothing to cache, no network.
    package var isBundled: Bool
    /// Whether the source can say whether an object's image may be reused: without, `--open-access-only` is
    /// refused before any request.
    package var statesRights: Bool
    /// Whether `institution` stands for any repository, so the name the repository gives itself (OAI-PMH
    /// `repositoryName`) names the catalog instead.
    package var namedByRepository: Bool

    package init(
        name: String,
        institution: String,
        defaultBaseURL: String,
        paging: String,
        keyVariable: String?,
        filters: [String],
        summary: String,
        requestsPerSecond: Double? = nil,
        speculativePaging: Bool = false,
        isBundled: Bool = false,
        statesRights: Bool = true,
        namedByRepository: Bool = false
    ) {
        self.name = name
        self.institution = institution
        self.defaultBaseURL = defaultBaseURL
        self.paging = paging
        self.keyVariable = keyVariable
        self.filters = filters
        self.summary = summary
        self.requestsPerSecond = requestsPerSecond
        self.speculativePaging = speculativePaging
        self.isBundled = isBundled
        self.statesRights = statesRights
        self.namedByRepository = namedByRepository
    }
}
