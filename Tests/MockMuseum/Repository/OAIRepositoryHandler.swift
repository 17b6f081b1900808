import Foundation

/// Serves an `OAIRepository` at `/oai`: `Identify`, `ListRecords` and `ListIdentifiers` in Dublin Core, as the
/// repository stands when each page is asked for.
struct OAIRepositoryHandler: MockHandler {
    let repository: OAIRepository
    let state: MockMuseumState

    private var behaviour: OAIRepository.Behaviour { repository.behaviour }

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        guard request.path == "/oai" else { return error("badVerb", "no such endpoint", status: 404) }
        let query = MockHTTP.formQuery(request.rawQuery)
        switch query["verb"] {
        case "Identify":
            guard !behaviour.refusesIdentify else { return error("badVerb", "Identify is not answered here") }
            return identify(request.origin)
        case "ListRecords", "ListIdentifiers": return await list(query, origin: request.origin)
        default: return error("badVerb", "only Identify, ListRecords and ListIdentifiers are imitated")
        }
    }

    private var responseDate: String {
        let now = RepositoryDates.text(repository.now + (behaviour.zonedResponseDate ? 3_600 : 0), days: false)
        let zone = behaviour.zonedResponseDate ? "+01:00" : "Z"
        return String(now.dropLast()) + (behaviour.fractionalResponseDate ? ".250" : "") + zone
    }

    /// The clock as an HTTP date: `Tue, 01 Dec 2026 10:00:00 GMT`.
    private var httpDate: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(repository.now)))
    }

    private func identify(_ origin: String) -> MockResponse {
        let records = repository.current
        let oldest = records.map(\.datestamp).min() ?? repository.now
        let earliest = behaviour.earliestLies ? oldest + 40 * 86_400 : oldest
        let days = behaviour.dayGranularity
        return xml(
            """
            <Identify><repositoryName>Mock repository</repositoryName><baseURL>\(origin)/oai</baseURL>\
            <protocolVersion>2.0</protocolVersion><adminEmail>mock@example.org</adminEmail>\
            <earliestDatestamp>\(RepositoryDates.text(earliest, days: days))</earliestDatestamp>\
            <deletedRecord>\(behaviour.keepsNoDeletions ? "no" : "persistent")</deletedRecord>\
            <granularity>\(days ? "YYYY-MM-DD" : "YYYY-MM-DDThh:mm:ssZ")</granularity></Identify>
            """, verb: "Identify", origin: origin)
    }

    private func list(_ query: [String: String], origin: String) async -> MockResponse {
        repository.listAsked()
        let verb = query["verb"] ?? ""
        let arguments: OAIRepository.ListArguments
        let offset: Int
        if let token = query["resumptionToken"] {
            guard query.count == 2 else { return error("badArgument", "resumptionToken is an exclusive argument") }
            guard !repository.takeRefusal(of: verb), let resumed = repository.resume(token),
                resumed.arguments.verb == verb
            else {
                return error("badResumptionToken", "The value of the resumptionToken argument is invalid or expired.")
            }
            (arguments, offset) = resumed
        } else {
            guard let prefix = query["metadataPrefix"] else {
                return error("badArgument", "metadataPrefix is required")
            }
            guard prefix == "oai_dc" else {
                return error("cannotDisseminateFormat", "The metadata format \(prefix) is not supported.")
            }
            for date in [query["from"], query["until"]].compactMap({ $0 }) {
                let days = behaviour.dayGranularity || behaviour.takesOnlyDays
                guard !behaviour.refusesDates, verb != "ListIdentifiers" || !behaviour.identifiersRefuseDates,
                    date.utf8.count == 10 || (!days && date.utf8.count == 20),
                    RepositoryDates.seconds(date) != nil
                else { return error("badArgument", "'\(date)' is not a datestamp this repository takes") }
            }
            arguments = OAIRepository.ListArguments(
                verb: verb, prefix: prefix, set: query["set"], from: query["from"], until: query["until"])
            offset = 0
        }
        // A window open before its end (a full run's first) starts at `Int.min`.
        if offset > 0, let until = arguments.until.flatMap(RepositoryDates.seconds),
            case let from = arguments.from.flatMap(RepositoryDates.seconds) ?? Int.min, from <= until
        {
            await repository.nextPageAsked(window: from...until)
        }
        let entries = repository.entries(arguments)
        let opensAtEnd = arguments.from != nil && arguments.until == nil
        guard !entries.isEmpty else {
            if opensAtEnd { repository.openListEnds() }
            return error("noRecordsMatch", "The combination of the values of the arguments results in an empty list.")
        }
        if behaviour.tokenPastEnd, offset > 0, offset >= entries.count {
            return error(behaviour.tokenPastEndError, "No more records.")
        }
        let end = min(offset + behaviour.pageSize, entries.count)
        if opensAtEnd, end >= entries.count { repository.openListEnds() }
        var body = ""
        var page = Array(entries[min(offset, entries.count)..<end])
        if behaviour.reordersPages, !page.isEmpty {
            let turn = repository.nextAnswer() % page.count
            page = Array(page[turn...] + page[..<turn])
        }
        for entry in page {
            body += verb == "ListIdentifiers" ? header(entry) + "\n" : record(entry)
        }
        let size = behaviour.sizeLies ? max(repository.size, entries.count) : entries.count
        let counted = behaviour.omitsSize ? "" : " completeListSize=\"\(size)\""
        if end < entries.count || (behaviour.tokenPastEnd && end - offset == behaviour.pageSize) {
            let token = repository.token(for: arguments, offset: end)
            body +=
                "<resumptionToken\(counted) cursor=\"\(offset)\">\(MockHTTP.escapeXML(token))</resumptionToken>\n"
        } else if offset > 0 {
            body += "<resumptionToken\(counted) cursor=\"\(offset)\"/>\n"
        }
        return xml("<\(verb)>\n\(body)</\(verb)>", verb: verb, origin: origin)
    }

    private func header(_ entry: OAIRepository.Entry) -> String {
        let stamp = RepositoryDates.text(repository.listedDatestamp(entry.datestamp), days: behaviour.dayGranularity)
        let sets =
            behaviour.headersOmitSets
            ? "" : entry.record.sets.map { "<setSpec>\(MockHTTP.escapeXML($0))</setSpec>" }.joined()
        return
            "<header\(entry.deleted ? " status=\"deleted\"" : "")><identifier>\(entry.record.identifier)</identifier>"
            + "<datestamp>\(stamp)</datestamp>\(sets)</header>"
    }

    private func record(_ entry: OAIRepository.Entry) -> String {
        guard !entry.deleted else { return "<record>\(header(entry))</record>\n" }
        guard !entry.record.unreadable else { return "<record>\(header(entry))<metadata></metadata></record>\n" }
        let object = entry.record
        var dc = """
            <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>MK-\(object.number)</dc:identifier>\
            <dc:title>\(MockHTTP.escapeXML(object.title))</dc:title>
            """
        if let maker = object.maker { dc += "<dc:creator>\(MockHTTP.escapeXML(maker))</dc:creator>" }
        if let date = object.date { dc += "<dc:date>\(MockHTTP.escapeXML(date))</dc:date>" }
        dc += "<dc:identifier>https://mock.example/objects/\(object.number)</dc:identifier>"
        if object.number % 3 != 0 {
            dc += "<dc:relation>https://iiif.mock.example/\(object.number)/full/max/0/default.jpg</dc:relation>"
        }
        dc += "</oai_dc:dc>"
        return "<record>\(header(entry))<metadata>\(dc)</metadata></record>\n"
    }

    private func xml(_ content: String, verb: String, origin: String) -> MockResponse {
        MockResponse(
            status: 200, headers: ["Content-Type": "text/xml;charset=UTF-8"],
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
                <responseDate>\(verb != "Identify" && behaviour.listsDateAsHTTP ? httpDate : responseDate)\
                </responseDate>
                <request verb="\(verb)">\(origin)/oai</request>
                \(content)
                </OAI-PMH>

                """.utf8))
    }

    private func error(_ code: String, _ message: String, status: Int = 200) -> MockResponse {
        MockResponse(
            status: status, headers: ["Content-Type": "text/xml;charset=UTF-8"],
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>\(responseDate)</responseDate>\
                <request>oai</request><error code="\(code)">\(MockHTTP.escapeXML(message))</error></OAI-PMH>
                """.utf8))
    }
}

extension MockMuseum {
    /// Starts a mock of a changing OAI-PMH repository at `{baseURL}/oai`.
    package static func repository(_ repository: OAIRepository) async throws -> MockMuseum {
        let state = MockMuseumState()
        return try await start(handler: OAIRepositoryHandler(repository: repository, state: state), state: state)
    }
}
