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
    package let sleeper: any HarvestSleeper
    private let pacer: RequestPacer?

    package init(
        source: any CollectionSource,
        transport: any Transport,
        options: HarvestOptions,
        logger: Logger = Logger(label: "vitrine.harvest"),
        sleeper: any HarvestSleeper = TaskSleeper()
    ) {
        self.source = source
        self.transport = transport
        self.options = options
        self.logger = logger
        self.sleeper = sleeper
        let rate = options.requestsPerSecond ?? source.descriptor.requestsPerSecond
        self.pacer = rate.flatMap { $0 > 0 ? RequestPacer(requestsPerSecond: $0) : nil }
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
        case .objects(let firstIDs, let firstNext, let pageSize):
            // The id list's own pages come first, one after another; then every object, `concurrency` at once.
            var ids = firstIDs
            var next = firstNext
            var index = 1
            while let cursor = next, index < pageLimit {
                let reference = PageReference(index: index, cursor: cursor)
                let page = try await fetch(cursor)
                try receive(reference, page)
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

    /// Fetches and decodes one page, within the rate ceiling, retrying transient failures by the retry policy;
    /// stamps source, page and URL on the failure that ends it.
    package func fetch(_ cursor: PageCursor) async throws(ExportError) -> SourcePage {
        let name = source.descriptor.name
        let request: SourceRequest
        do {
            request = try source.request(for: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description)
        }
        let policy = RetryPolicy(retries: options.retries, jitter: options.jitter)
        var retry = 0
        while true {
            let failure: HarvestFailure
            do throws(HarvestFailure) {
                try await pace()
                let response = try await transport.fetch(request)
                logger.debug(
                    "fetched page",
                    metadata: ["page": "\(cursor)", "status": "\(response.status)", "url": "\(request.redactedURL)"]
                )
                if let failure = source.failure(for: response) { throw failure }
                return try source.decode(response, page: cursor)
            } catch {
                failure = error
            }
            retry += 1
            guard let delay = policy.delay(beforeRetry: retry, after: failure) else {
                let final = failure.isTransient && retry > 1 ? failure.givenUp(afterRetries: retry - 1) : failure
                throw ExportError(.harvest(final), source: name, page: cursor.description, url: request.redactedURL)
            }
            logger.notice(
                "retrying",
                metadata: [
                    "page": "\(cursor)", "retry": "\(retry)", "after": "\(delay)", "reason": "\(failure.message)",
                    "url": "\(request.redactedURL)",
                ]
            )
            do {
                try await sleeper.sleep(for: delay)
            } catch {
                throw ExportError(.harvest(failure), source: name, page: cursor.description, url: request.redactedURL)
            }
        }
    }

    /// Waits for the next request slot under the rate ceiling, if there is one.
    private func pace() async throws(HarvestFailure) {
        guard let pacer else { return }
        let wait = await pacer.reserve()
        guard wait > .zero else { return }
        do {
            try await sleeper.sleep(for: wait)
        } catch {
            throw .connection("cancelled")
        }
    }
}
