/// Chains (OAI-PMH resumption tokens): one page after another by protocol, the next request sent before the page
/// before it is parsed.
extension HarvestWorker {
    /// Token chains: one request after another by protocol. But a response that names the next page before
    /// it is parsed (`peekNext`) starts the next request at once, and that page is parsed in its own task as
    /// soon as it lands: up to `concurrency` pages are in flight or being parsed, on every core, while pages
    /// are still handed over in order.
    func harvestChain(
        from cursor: PageCursor, after firstPage: SourcePage? = nil, prefetched: Prefetch?, pageLimit: Int,
        _ receive: Receive
    ) async throws -> ChainEnd {
        var reference = PageReference(index: 1, cursor: cursor)
        var ahead = prefetched
        // What the chain listed, and what its server counted: a token answered with no records (a page that counts
        // none) once exactly every counted record came ends the list (a last full page that still names a token, as
        // some repositories send). A token forgotten, or one refused before the count, never does: a count that is
        // wrong would lose the rest of the list. With no count, the pass is read again (`ChainEnd.confirms`).
        var listed = firstPage.map { $0.listed ?? $0.records.count } ?? 0
        var counted = firstPage?.reportedTotal
        // Every token asked for so far: a server that sends one again (the same token forever, or A→B→A) would
        // keep a harvest, or a replay of the page cache, looping with no end.
        var asked: Set<PageCursor> = [cursor]
        // A server that starts its list over under new tokens, or sends empty pages that name another for ever,
        // never repeats a token: the pages it lists again whole, and the empty pages, in a row, are counted instead.
        // Numbered pages (a `next` link) past the end that list a page's records again, in any order, end the chain.
        var seenPages: Set<Fingerprint> = firstPage?.keySet.map { [$0] } ?? []
        var repeatedPages = 0
        var emptyInARow = 0
        // A page fetched ahead that the chain no longer takes is cancelled however the chain ends, so that no
        // request of it goes on, or fills the page cache, after the harvest has stopped.
        do {
            while reference.index < pageLimit {
                // A chain whose harvest gave up on it (another window found the dates ignored) stops here.
                if Task.isCancelled {
                    throw ExportError(.harvest(.connection("cancelled")), page: reference.cursor.description)
                }
                let page: SourcePage
                // Work started from a peek is used only if the decoded page names the same next page.
                if let early = ahead, early.cursor == reference.cursor {
                    ahead = nil
                    (page, ahead) = try await early.value()
                } else {
                    await ahead?.cancel()
                    ahead = nil
                    (page, ahead) = try await fetchAhead(reference.cursor)
                }
                if case .expiredToken(let message) = page.continuation {
                    await ahead?.cancel()
                    guard page.reportedTotal == 0 else { return .tokenExpired(message, page: reference.cursor) }
                    guard let counted else { return .tokenExpired(message, page: reference.cursor, listed: listed) }
                    if counted > 0, listed == counted { return .finished }
                    return .tokenExpired(message, page: reference.cursor)
                }
                listed += page.listed ?? page.records.count
                counted = page.reportedTotal ?? counted
                let keySet = page.keySet
                if case .number = reference.cursor {
                    if let keySet, !seenPages.insert(keySet).inserted {
                        await ahead?.cancel()
                        return .finished
                    }
                } else {
                    if let keySet { repeatedPages = seenPages.insert(keySet).inserted ? 0 : repeatedPages + 1 }
                    emptyInARow = (page.listed ?? page.records.count) == 0 ? emptyInARow + 1 : 0
                    if emptyInARow > Self.emptyPagesAllowed {
                        throw endless(
                            "\(emptyInARow) pages in a row with no record, each naming another", at: reference)
                    }
                    if repeatedPages > Self.repeatedPagesAllowed {
                        throw endless(
                            "\(repeatedPages) pages in a row listing records again under new resumption tokens",
                            at: reference)
                    }
                }
                try receive(reference, page)
                guard case .next(.some(let next)) = page.continuation else {
                    await ahead?.cancel()
                    return .finished
                }
                guard asked.insert(next).inserted else {
                    throw endless(
                        "the resumption token '\(next.description.dropFirst("token ".count))' again", at: reference)
                }
                reference = PageReference(index: reference.index + 1, cursor: next)
            }
        } catch {
            await ahead?.cancel()
            throw error
        }
        await ahead?.cancel()
        return .finished
    }

    /// The failure of a chain whose server sent `what` up to the page at `reference`: a list that would never end.
    private func endless(_ what: String, at reference: PageReference) -> ExportError {
        ExportError(
            .harvest(
                .api(
                    "the server sent \(what) after page \(reference.index + 1), so the list would never end (a server "
                        + "bug); stopping here: tell the repository, or narrow the harvest with --from/--until")),
            source: source.descriptor.name, page: reference.cursor.description,
            url: try? source.request(for: reference.cursor).redactedURL)
    }

    /// Pages in a row listed again whole under new tokens that a chain allows (a record listed twice is a
    /// duplicate; a list started over repeats every page).
    static let repeatedPagesAllowed = 10
    /// Pages in a row that list nothing that a chain allows (a repository that filters a set after paging sends
    /// many).
    static let emptyPagesAllowed = 10_000

    /// A page of a chain already being fetched and parsed, started from a peek. Holds one of the worker's
    /// `concurrency` slots until its page is taken or it is cancelled.
    final class Prefetch: Sendable {
        let cursor: PageCursor
        private let task: Task<Handover, any Error>
        private let slots: PrefetchSlots
        /// Whether its slot was given back: once, whether its page was taken, it was cancelled, or both.
        private let released = Locked(false)

        init(
            cursor: PageCursor, slots: PrefetchSlots,
            work: @escaping @Sendable () async throws -> (SourcePage, Prefetch?)
        ) {
            self.cursor = cursor
            self.slots = slots
            self.task = Task { Handover(try await work()) }
        }

        /// The page and the prefetch of the page after it, taken out: a task keeps its result, and the chain's
        /// first prefetch is held by its caller to the chain's end, so a page left in it would keep every page
        /// after it, the whole chain, in memory.
        private final class Handover: Sendable {
            private let contents: Locked<(SourcePage, Prefetch?)?>

            init(_ contents: (SourcePage, Prefetch?)) {
                self.contents = Locked(contents)
            }

            func take() -> (SourcePage, Prefetch?)? {
                contents.withLock { contents in
                    defer { contents = nil }
                    return contents
                }
            }
        }

        /// The page and the prefetch of the page after it, once (a page taken or cancelled is not given again).
        func value() async throws(ExportError) -> (SourcePage, Prefetch?) {
            defer { release() }
            do {
                // Unstructured, so the chain's cancellation is passed on by hand.
                let handover = try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
                if let taken = handover.take() { return taken }
            } catch let error as ExportError {
                throw error
            } catch {}
            throw ExportError(.harvest(.connection("cancelled")), page: cursor.description)
        }

        /// Cancels the page and waits until its work has stopped, with whatever it fetched ahead in turn and was not
        /// taken: once a chain has returned, none of its requests goes on or fills the page cache.
        func cancel() async {
            task.cancel()
            if let (_, nested) = try? await task.value.take() { await nested?.cancel() }
            release()
        }

        private func release() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            if first { slots.release() }
        }
    }
}

/// How many chain pages may be fetched or parsed ahead of the one being handed over.
final class PrefetchSlots: Sendable {
    private let limit: Int
    private let used = Locked(0)

    init(limit: Int) {
        self.limit = limit
    }

    func acquire() -> Bool {
        used.withLock { used in
            guard used < limit else { return false }
            used += 1
            return true
        }
    }

    func release() {
        used.withLock { $0 = max(0, $0 - 1) }
    }
}
