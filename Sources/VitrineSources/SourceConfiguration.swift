/// What the command line tells a source: where, with which key, and how to page.
package struct SourceConfiguration: Sendable, Equatable {
    package var source: SourceID
    /// `--base-url`; the source's default when `nil`.
    package var baseURL: String?
    /// `--key`; otherwise read from the source's environment variable.
    package var key: String?
    /// `--page-size`; the source's default when `nil`.
    package var pageSize: Int?
    /// `--language`: the culture or language the API answers in (`en`, `nl`).
    package var language: String
    /// `--query`: free-text search, where the API has one.
    package var query: String?
    /// `--artist`: only this maker's objects, where the API can filter by maker.
    package var artist: String?

    package init(
        source: SourceID,
        baseURL: String? = nil,
        key: String? = nil,
        pageSize: Int? = nil,
        language: String = "en",
        query: String? = nil,
        artist: String? = nil
    ) {
        self.source = source
        self.baseURL = baseURL
        self.key = key
        self.pageSize = pageSize
        self.language = language
        self.query = query
        self.artist = artist
    }
}
