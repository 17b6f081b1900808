/// Id lists (The Met): the list's own pages one after another, then every object, `concurrency` at a time.
extension HarvestWorker {
    func harvestObjects(
        _ firstIDs: [String], next firstNext: PageCursor?, pageSize: Int, pageLimit: Int, _ receive: Receive
    ) async throws {
        // The id list's own pages come first, one after another; then every object, `concurrency` at once.
        var ids = firstIDs
        var next = firstNext
        var index = 1
        while let cursor = next, index < pageLimit {
            let page = try await fetch(cursor)
            try receive(PageReference(index: index, cursor: cursor), page)
            index += 1
            guard case .objects(let more, let following, _) = page.continuation else { break }
            ids += more
            next = following
        }
        var seen = Set<String>()
        var unique = ids.filter { seen.insert($0).inserted }
        if let maxPages = options.maxPages { unique = Array(unique.prefix(maxPages * max(1, pageSize))) }
        let references = unique.enumerated().map {
            PageReference(index: index + $0.offset, cursor: .object($0.element))
        }
        try await fetchConcurrently(references, receive)
    }

    /// Fetches pages with at most `options.concurrency` requests in flight, handing each over as it lands.
    func fetchConcurrently(_ references: [PageReference], _ receive: Receive) async throws {
        let width = max(1, options.concurrency)
        try await withThrowingTaskGroup(of: (PageReference, SourcePage).self) { group in
            var pending = references.makeIterator()
            for _ in 0..<width {
                guard let reference = pending.next() else { break }
                group.addTask { (reference, try await fetch(reference.cursor)) }
            }
            while let (reference, page) = try await group.next() {
                try receive(reference, page)
                if let next = pending.next() {
                    group.addTask { (next, try await fetch(next.cursor)) }
                }
            }
        }
    }
}
