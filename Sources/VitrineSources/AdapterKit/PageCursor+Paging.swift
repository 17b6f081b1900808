import VitrineCore

extension PageCursor {
    /// The page number of a numbered API's cursor. Any other cursor would be a bug in the harvest's paging, said
    /// in the same words by every source.
    package func pageNumber() throws(HarvestFailure) -> Int {
        guard case .number(let number) = self else { throw .invalidRequest("this API pages by number, not by \(self)") }
        return number
    }

    /// The resumption token of a chained API's cursor (`nil` for the first request).
    package func resumptionToken() throws(HarvestFailure) -> String? {
        guard case .token(let token) = self else {
            throw .invalidRequest("this API pages by resumption token, not by \(self)")
        }
        return token
    }
}
