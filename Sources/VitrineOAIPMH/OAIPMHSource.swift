import Foundation
import VitrineCore
import VitrineSources

/// Any OAI-PMH 2.0 repository: `?verb=ListRecords&metadataPrefix=…` (with `set`, `from`, `until`), then
/// `?verb=ListRecords&resumptionToken=…` alone until the token is empty or absent.
///
/// Responses are read with a streaming parser one record at a time. OAI `<error>` elements are read whatever the
/// HTTP status: `noRecordsMatch` is an empty catalog, the others fail with what to change. Deleted records are
/// counted, not kept.
package struct OAIPMHSource: CollectionSource {
    package static let genericDescriptor = SourceDescriptor(
        name: SourceID.oai.rawValue,
        institution: "OAI-PMH repository",
        defaultBaseURL: "(none: --base-url is required)",
        paging: "OAI-PMH resumption tokens, one page after another (the server sets the page size)",
        keyVariable: nil,
        filters: ["--set", "--from", "--until", "--metadata-prefix", "--language"],
        summary: "Any OAI-PMH 2.0 endpoint; Dublin Core (oai_dc) by default, EDM understood too.",
        namedByRepository: true
    )

    package let descriptor: SourceDescriptor
    package let baseURL: URL
    package let metadataPrefix: String
    package let set: String?
    package var from: String?
    package var until: String?
    /// The user's own `--from` and `--until`, which `from` and `until` start as (a window or a run's changes
    /// narrow them).
    package let requestedFrom: String?
    package let requestedUntil: String?
    /// `--language`: which of a record's languages its text is read in.
    package let language: String
    package let mapper: OAIRecordMapper

    package init(
        descriptor: SourceDescriptor,
        baseURL: URL,
        metadataPrefix: String,
        set: String? = nil,
        from: String? = nil,
        until: String? = nil,
        language: String = "en"
    ) {
        self.descriptor = descriptor
        self.baseURL = baseURL
        self.metadataPrefix = metadataPrefix
        self.set = set
        self.from = from
        self.until = until
        self.requestedFrom = from
        self.requestedUntil = until
        self.language = language
        self.mapper = OAIRecordMapper(language: language, set: set)
    }

    /// Builds an OAI-PMH source from command-line settings, refusing what OAI-PMH cannot do.
    /// - parameter defaultBaseURL: `nil` when `--base-url` is required.
    package init(
        _ configuration: SourceConfiguration,
        descriptor: SourceDescriptor,
        defaultBaseURL: String?,
        defaultPrefix: String
    ) throws(ExportError) {
        let name = descriptor.name
        guard let base = configuration.baseURL ?? defaultBaseURL else {
            throw ExportError(
                .configuration("the oai source needs --base-url, the repository's OAI-PMH address"), source: name)
        }
        // The generic source has no default base URL: `--base-url` stands in for it while the settings resolve.
        var resolving = descriptor
        resolving.defaultBaseURL = base
        let settings = try configuration.settings(
            for: resolving,
            pageSizes: .chosenByServer(reason: "OAI-PMH servers choose their own page size; leave out --page-size"))
        for (flag, value) in [("--from", configuration.from), ("--until", configuration.until)] {
            guard let value else { continue }
            guard Self.isDatestamp(value) else {
                throw ExportError(
                    .configuration("\(flag) '\(value)' is not a UTC date: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ"),
                    source: name)
            }
        }
        // A window that ends before it starts asks for nothing, and would publish an empty catalog.
        if let from = configuration.from, let until = configuration.until,
            (from.count == 10 ? from + "T00:00:00Z" : from) > (until.count == 10 ? until + "T23:59:59Z" : until)
        {
            throw ExportError(
                .configuration("--from \(from) is after --until \(until): the window holds no date"), source: name)
        }
        // OAI-PMH takes `from` and `until` at one granularity: a day beside a second is sent as its first or last
        // second (a repository that takes seconds takes them both so; one that takes days refused the second).
        var (from, until) = (configuration.from, configuration.until)
        if let day = from, let second = until, day.count == 10, second.count != 10 { from = day + "T00:00:00Z" }
        if let second = from, let day = until, day.count == 10, second.count != 10 { until = day + "T23:59:59Z" }
        self.init(
            descriptor: descriptor,
            baseURL: settings.baseURL,
            metadataPrefix: configuration.metadataPrefix ?? defaultPrefix,
            set: configuration.set,
            from: from,
            until: until,
            language: configuration.language
        )
    }

    /// OAI-PMH datestamps: a day, or a second in UTC.
    package static func isDatestamp(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z)?/) else {
            return false
        }
        // A real day and time: `2026-13-45` has the shape but no such date.
        var components = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
            year: Int(match.output.1), month: Int(match.output.2), day: Int(match.output.3))
        if let hour = match.output.4, let minute = match.output.5, let second = match.output.6 {
            (components.hour, components.minute, components.second) = (Int(hour), Int(minute), Int(second))
        }
        return components.isValidDate
    }

    package var firstPage: PageCursor { .token(nil) }

    package var readingOptions: [String] { ["language=\(language)"] }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        var parameters: [(String, String)] = [("verb", "ListRecords")]
        if let token = try page.resumptionToken() {
            // The protocol: a resumption request carries the verb and the token, nothing else.
            parameters.append(("resumptionToken", token))
        } else {
            parameters.append(("metadataPrefix", metadataPrefix))
            if let set { parameters.append(("set", set)) }
            if let from { parameters.append(("from", from)) }
            if let until { parameters.append(("until", until)) }
        }
        return SourceRequest(
            url: try QueryString.url(baseURL, adding: parameters), headers: ["Accept": "text/xml, application/xml"])
    }

    /// OAI-PMH servers may send their `<error>` with a 4xx status: an XML body is read whatever the status.
    package func failure(for response: SourceResponse) -> HarvestFailure? {
        if response.status == 429 || response.status >= 500 { return response.statusFailure }
        if (400..<500).contains(response.status), response.looksLikeXML { return nil }
        return response.statusFailure
    }

    /// How much of a page is parsed before other tasks get a turn: a small part of a page, so that the network's
    /// work waits little (see `OAIPMHPageParser.parse(_:mapper:yieldingEvery:)`).
    static let parseSlice = 16 << 10

    package func decode(_ sent: SourceResponse, page: PageCursor) async throws(HarvestFailure) -> SourcePage {
        let response = Self.inUTF8(sent)
        if let failure = Self.unavailablePage(response) { throw failure }
        var parsed: OAIPMHResponse
        var notices: [String] = []
        do {
            parsed = try await OAIPMHPageParser.parse(response.body, mapper: mapper, yieldingEvery: Self.parseSlice)
        } catch {
            guard (200..<300).contains(response.status) else {
                throw .httpStatus(response.status, response.bodySnippet)
            }
            // A connection closed early, with no length to tell it by: fetched again, like any dropped answer.
            if Self.isCutShort(response.body) {
                throw .connection("page \(page): the answer stopped before the end of its XML (\(error.text))")
            }
            // Real repositories send control characters, bytes that are not UTF-8 and home-made entities: one
            // such title must not fail its page, and with it every page after it in the chain.
            guard let (mended, changes) = XMLRepair.repaired(response.body),
                let reparsed = try? await OAIPMHPageParser.parse(mended, mapper: mapper, yieldingEvery: Self.parseSlice)
            else { throw .undecodablePage(error.text) }
            parsed = reparsed
            notices.append(
                "page \(page): the repository sent XML that is not well-formed (\(error.text)); Vitrine mended "
                    + "\(changes) \(changes == 1 ? "place" : "places") (control characters, bytes that are not UTF-8, "
                    + "undeclared entities) and read the page")
        }
        if let error = parsed.error {
            // `noRecordsMatch` ends a list only on its first page: after a token it cuts the list short, and an end
            // there would delete every record not yet read.
            if error.code == "noRecordsMatch", page == .token(nil) {
                return SourcePage(records: [], continuation: .end, reportedTotal: 0, serverTime: parsed.responseDate)
            }
            if error.code == "badResumptionToken" || error.code == "noRecordsMatch" {
                // `noRecordsMatch` says the rest of the list holds none: a chain that read exactly what it counted
                // ends there (`HarvestWorker.harvestChain`); a token forgotten (`badResumptionToken`) never ends it.
                return SourcePage(
                    records: [], continuation: .expiredToken(message(for: error, page: page)),
                    reportedTotal: error.code == "noRecordsMatch" ? 0 : nil)
            }
            if error.code == "badArgument", page == .token(nil), from != nil || until != nil {
                throw .datesRefused(message(for: error, page: page))
            }
            throw .api(message(for: error, page: page))
        }
        guard (200..<300).contains(response.status) else { throw .httpStatus(response.status, response.bodySnippet) }
        let records = parsed.outcomes
        if parsed.outsideSet > 0, let set {
            notices.append(
                "the repository listed records under --set \(set) whose headers name only other sets: it may not "
                    + "apply the set (they are kept as it listed them); compare with the set on the repository")
        }
        let continuation: Continuation = parsed.resumptionToken.map { .next(.token($0)) } ?? .end
        return SourcePage(
            records: records, continuation: continuation, reportedTotal: parsed.completeListSize, notices: notices,
            serverTime: parsed.responseDate)
    }

    /// What an OAI-PMH error means for the user, and what to change.
    private func message(for error: (code: String, message: String), page: PageCursor) -> String {
        let said = error.message.isEmpty ? error.code : "\(error.code): \(error.message)"
        switch error.code {
        case "badResumptionToken":
            return "the repository rejected the resumption token (\(said)) even after the list was started over; "
                + "run the export again later, or narrow it with --from/--until"
        case "noRecordsMatch":
            return "the repository answered a resumption token with no records (\(said)), cutting the list short, "
                + "even after the list was started over; run the export again later, or narrow it with --from/--until"
        case "cannotDisseminateFormat":
            return "the repository does not serve metadataPrefix=\(metadataPrefix) (\(said)); "
                + "pick another with --metadata-prefix (oai_dc is always served)"
        case "badArgument" where page == .token(nil) && (from != nil || until != nil):
            let dates = [from.map { "from=\($0)" }, until.map { "until=\($0)" }].compactMap { $0 }
            let given = [requestedFrom.map { _ in "--from" }, requestedUntil.map { _ in "--until" }].compactMap { $0 }
            return "the repository refused the dates asked for (\(dates.joined(separator: ", ")): \(said))"
                + (given.isEmpty ? "" : "; check \(given.joined(separator: " and "))")
        case "badArgument":
            return "the repository refused the request's arguments (\(said))"
                + (set == nil ? "" : "; check --set")
        case "noSetHierarchy":
            return "the repository has no sets (\(said)); leave out --set"
        default:
            return "the repository answered with an OAI-PMH error (\(said))"
        }
    }

    /// The resumption token, found by a byte search in the end of the body, so the next request can leave
    /// while this page is parsed. The decoded page has the final word.
    package func peekNext(_ response: SourceResponse) -> PageCursor? {
        guard (200..<300).contains(response.status) else { return nil }
        return response.body.withUnsafeBytes { raw -> PageCursor? in
            let body = raw.assumingMemoryBound(to: UInt8.self)
            let tail = UnsafeBufferPointer(rebasing: body[max(0, body.count - 8_192)...])
            // The opening tag (`<resumptionToken …>` or `<oai:resumptionToken …>`), not the closing one.
            guard let nameEnd = Self.lastOpeningTag(named: Array("resumptionToken".utf8), in: tail),
                let close = tail[nameEnd...].firstIndex(of: UInt8(ascii: ">")),
                tail[close - 1] != UInt8(ascii: "/")
            else { return nil }
            var end = close + 1
            while end + 1 < tail.count, !(tail[end] == UInt8(ascii: "<") && tail[end + 1] == UInt8(ascii: "/")) {
                end += 1
            }
            guard end + 1 < tail.count else { return nil }
            var token: [UInt8] = []
            XMLEntities.appendUnescaped(UnsafeBufferPointer(rebasing: tail[(close + 1)..<end]), to: &token)
            let text = String(decoding: token, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.contains("<") else { return nil }
            return .token(text)
        }
    }

    /// Where the name of the last opening tag `<name` or `<prefix:name` in `bytes` ends.
    private static func lastOpeningTag(named name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
        var index = bytes.count - name.count - 1
        while index > 0 {
            defer { index -= 1 }
            guard bytes[index] == name[0], bytes[index..<(index + name.count)].elementsEqual(name) else { continue }
            let after = bytes[index + name.count]
            guard
                after == UInt8(ascii: ">") || after == UInt8(ascii: "/") || after == 0x20 || after == 0x09
                    || after == 0x0A || after == 0x0D
            else { continue }
            var start = index
            if bytes[start - 1] == UInt8(ascii: ":") {
                start -= 1
                while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
                guard start < index - 1 else { continue }
            }
            if start > 0, bytes[start - 1] == UInt8(ascii: "<") { return index + name.count }
        }
        return nil
    }
}

extension SourceID {
    package static let oai: SourceID = "oai"
}

extension OAIPMHSource {
    /// `--source oai`: any repository, Dublin Core unless `--metadata-prefix` says otherwise.
    package static let registration = SourceRegistration(descriptor: genericDescriptor) {
        configuration, _ throws(ExportError) in
        try OAIPMHSource(configuration, descriptor: genericDescriptor, defaultBaseURL: nil, defaultPrefix: "oai_dc")
    }
}
