import Logging

/// Walks a source's pages through a transport: the order of requests, how many at once, and where to stop.
///
/// Page-numbered sources are fetched `concurrency` pages at a time once the first page tells how many there
/// are; chained (token) sources one after another; id-list sources one object per request, `concurrency` at
/// a time. Pages are handed over as they arrive, each with its place in the source's order, so the receiver
/// can rebuild the source's order whatever the arrival order. Every error leaves here as an `ExportError`
/// naming source, page and URL.
package struct HarvestWorker: Sendable {
    package let source: any CollectionSource
    package let transport: any Transport
    package let options: HarvestOptions
    package let logger: Logger

    package init(
        source: any CollectionSource,
        transport: any Transport,
        options: HarvestOptions,
        logger: Logger = Logger(label: "vitrine.harvest")
    ) {
        self.source = source
        self.transport = transport
        self.options = options
        self.logger = logger
    }

    /// Fetches every page and hands each to `receive` as it arrives.
    package func harvest(_ receive: (PageReference, SourcePage) throws -> Void) async throws {
        let first = PageReference(index: 0, cursor: source.firstPage)
        let firstPage = try await fetch(first.cursor)
        try receive(first, firstPage)
        let pageLimit = options.maxPages ?? Int.max

        switch firstPage.continuation {
        case .end, .next(nil):
            return
        case .pageNumbers(let lastPage, let limit, let pageSize):
            guard case .number(let firstNumber) = first.cursor else { return }
            let lastAllowed = firstNumber + max(0, min(pageLimit, limit - firstNumber + 1) - 1)
            let last = min(lastPage, lastAllowed)
            var lastPageSize = firstPage.records.count
            if last > firstNumber {
                let rest = (firstNumber + 1...last).map { PageReference(index: $0 - firstNumber, cursor: .number($0)) }
                try await fetchConcurrently(rest) { reference, page in
                    if reference.cursor == .number(last) { lastPageSize = page.records.count }
                    try receive(reference, page)
                }
            }
            // The count promised no more, but the server may number pages from 1: go on while pages are full.
            var number = max(last, firstNumber) + 1
            while lastPageSize >= pageSize && number <= lastAllowed {
                let reference = PageReference(index: number - firstNumber, cursor: .number(number))
                let page = try await fetch(reference.cursor)
                try receive(reference, page)
                lastPageSize = page.records.count
                number += 1
            }
        case .objects(let ids):
            let references = ids.enumerated().map { PageReference(index: $0.offset + 1, cursor: .object($0.element)) }
            try await fetchConcurrently(references, receive)
        case .next(.some(let cursor)):
            var reference = PageReference(index: 1, cursor: cursor)
            while reference.index < pageLimit {
                let page = try await fetch(reference.cursor)
                try receive(reference, page)
                guard case .next(.some(let next)) = page.continuation else { return }
                reference = PageReference(index: reference.index + 1, cursor: next)
            }
        }
    }

    /// Fetches pages with at most `options.concurrency` requests in flight, handing each over as it lands.
    private func fetchConcurrently(
        _ references: [PageReference],
        _ receive: (PageReference, SourcePage) throws -> Void
    ) async throws {
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

    /// Fetches and decodes one page, stamping source, page and URL on any failure.
    package func fetch(_ cursor: PageCursor) async throws(ExportError) -> SourcePage {
        let name = source.descriptor.name
        let request: SourceRequest
        do {
            request = try source.request(for: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description)
        }
        do throws(HarvestFailure) {
            let response = try await transport.fetch(request)
            logger.debug(
                "fetched page",
                metadata: ["page": "\(cursor)", "status": "\(response.status)", "url": "\(request.redactedURL)"]
            )
            if let failure = source.failure(for: response) { throw failure }
            return try source.decode(response, page: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description, url: request.redactedURL)
        }
    }
}
