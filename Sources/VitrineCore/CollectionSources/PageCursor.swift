/// Which page of a source to fetch: a page number, a resumption token, or one object of an id list.
package enum PageCursor: Sendable, Hashable, CustomStringConvertible {
    /// A numbered page, as the API numbers it.
    case number(Int)
    /// A token-paged list: `nil` is the first request, then each page's token.
    case token(String?)
    /// One object of an id list (sources that list ids, then fetch each object).
    case object(String)

    package var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .token(nil): "1"
        case .token(.some(let token)): "token \(token)"
        case .object(let id): "object \(id)"
        }
    }
}

/// A page in harvest order: `index` is its place in the source's own order, which fixes the order of
/// objects in the catalog whatever order pages arrive in.
package struct PageReference: Sendable, Hashable {
    package var index: Int
    package var cursor: PageCursor

    /// The places of a windowed harvest's last list, of what was saved since its span's end: what it lists again
    /// is no duplicate.
    package static let relisted =
        (1 << 40) * HarvestWorker.pagesPerWindow..<((1 << 40) + 1) * HarvestWorker.pagesPerWindow
}
