import Foundation

/// A generated OAI-PMH repository in the Rijksmuseum's shape: EDM (flat on even pages, the older nested shape on
/// odd ones) or `oai_dc`, deleted records, opaque tokens with `+`, `/` and `=` in them, OAI errors.
package struct OAICollection: Sendable {
    package var count: Int
    package var pageSize = 50
    /// Every `deletedEvery`-th record is a deleted header (0: none).
    package var deletedEvery = 11
    /// The HTTP status OAI `<error>`s come with (the protocol says 200; some servers send 4xx).
    package var errorStatus = 200
    /// Leaves the last page's `<resumptionToken/>` out instead of sending it empty.
    package var omitFinalToken = false
    /// Pages (from 0) whose token the server rejects as expired (`badResumptionToken`).
    package var expiredPages: Set<Int> = []
    /// How the museum changes between harvests (see `MockFaults.museumGeneration`).
    package var generations: [ChangeGeneration] = []
    /// `Identify` says `YYYY-MM-DD`: `from`/`until` take days only, and datestamps are days.
    package var dayGranularity = false
    /// Datestamps as a real repository's bunch up: 60% on one bulk-load day, 30% spread over two years, 10% in
    /// one second (a re-index); otherwise every record of the bulk load shares one datestamp.
    package var skewedDatestamps = false
    /// Leaves `completeListSize` out (it is optional).
    package var omitCompleteListSize = false
    /// Refuses `from` and `until` with `badArgument`, as some repositories do.
    package var refusesDates = false
    /// Pages (from 0) whose token is refused as expired the first time each is asked for, in every listing.
    package var expiresOnce: Set<Int> = []
    /// A record that moved while a harvest walked its windows (it was revised, and its datestamp with it): listed
    /// at its old datestamp as it was, and again at `movedDatestamp` as revised, as two windows walked before and
    /// after the change see it. With `movedRecordSettled`, only the revised one: the museum after the move.
    package var movedRecord: Int?
    package var movedRecordSettled = false
    /// From this page (from 0) of every listing on, the resumption token names the page it came with, so the
    /// list would never end (a known server bug).
    package var repeatsTokenFrom: Int?
    /// Where the moved record's revision sits in time: inside the span a harvest cuts into windows.
    package static let movedDatestamp = "2025-12-01T12:00:00Z"

    package init(count: Int, pageSize: Int = 50, deletedEvery: Int = 11, errorStatus: Int = 200) {
        self.count = count
        self.pageSize = pageSize
        self.deletedEvery = deletedEvery
        self.errorStatus = errorStatus
    }

    /// Whether record `number` is served as deleted.
    package func isDeleted(_ number: Int) -> Bool {
        deletedEvery > 0 && number % deletedEvery == deletedEvery - 1
    }

    /// The object number (`dc:identifier`) of record `number`.
    package static func objectNumber(_ number: Int) -> String { "SK-A-\(number + 1)" }

    /// The IIIF id of record `number`'s image.
    package static func iiifID(_ number: Int) -> String { "MX\(number + 1)Q" }

    /// The opaque token for page `page`: base64-like, with characters a query string must escape.
    package static func token(page: Int) -> String { "b2Zmc2V0+\(page)/cGFnZQ==" }
}

struct OAIPMHHandler: MockHandler {
    let collection: OAICollection
    let state: MockMuseumState
    let listings = OAIListings()

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        guard request.path == "/oai" else { return error(request.origin, "badVerb", "no such endpoint", status: 404) }
        let query = MockHTTP.formQuery(request.rawQuery)
        let museum = await state.faults.museumGeneration
        if query["verb"] == "Identify" { return identify(request.origin, generation: museum) }
        guard query["verb"] == "ListRecords" else {
            return error(request.origin, "badVerb", "only ListRecords and Identify are imitated")
        }
        let generation = await state.faults.tokenGeneration
        if let token = query["resumptionToken"] {
            guard query.count == 2 else {
                return error(request.origin, "badArgument", "resumptionToken is an exclusive argument")
            }
            let window = Self.window(of: token)
            let listed = listings.records(of: collection, generation: museum, from: window.from, until: window.until)
            var once = false
            if collection.expiresOnce.contains(Self.page(of: token) ?? -1) { once = await state.count(token) == 0 }
            guard let number = Self.page(of: token), number > 0, number * collection.pageSize < listed.count,
                !collection.expiredPages.contains(number), Self.generation(of: token) == generation, !once
            else {
                return error(
                    request.origin, "badResumptionToken",
                    "The value of the resumptionToken argument is invalid or expired.")
            }
            return records(
                request.origin, listed, page: number, prefix: Self.prefix(of: token), generation: generation,
                window: window, museum: museum)
        }
        guard let requested = query["metadataPrefix"] else {
            return error(request.origin, "badArgument", "metadataPrefix is required")
        }
        guard ["edm", "oai_dc"].contains(requested) else {
            return error(
                request.origin, "cannotDisseminateFormat",
                "The metadata format identified by \(requested) is not supported.")
        }
        let window = (from: query["from"], until: query["until"])
        if collection.refusesDates, window.from != nil || window.until != nil {
            return error(request.origin, "badArgument", "from and until are not supported by this repository")
        }
        for date in [window.from, window.until].compactMap({ $0 }) where !isDatestamp(date) {
            return error(request.origin, "badArgument", "'\(date)' is not a datestamp of this repository's granularity")
        }
        let listed = listings.records(of: collection, generation: museum, from: window.from, until: window.until)
        if query["set"] == "empty" || listed.isEmpty {
            return error(
                request.origin, "noRecordsMatch",
                "The combination of the values of the arguments results in an empty list.", museum: museum)
        }
        return records(
            request.origin, listed, page: 0, prefix: requested, generation: generation, window: window,
            museum: museum)
    }

    /// Whether `date` has a granularity the repository takes: days always (the protocol requires it), seconds
    /// when `Identify` says so.
    private func isDatestamp(_ date: String) -> Bool {
        date.utf8.count == 10 || (!collection.dayGranularity && date.utf8.count == 20)
    }

    private func identify(_ origin: String, generation: Int) -> MockResponse {
        let granularity = collection.dayGranularity ? "YYYY-MM-DD" : "YYYY-MM-DDThh:mm:ssZ"
        return Self.xmlResponse(
            200,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <?xml-stylesheet type="text/xsl" href="/oai2.xsl"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
            <responseDate>\(OAICollection.responseDate(generation: generation))</responseDate>
            <request verb="Identify">\(origin)/oai</request>
            <Identify><repositoryName>Mock Rijksmuseum</repositoryName><baseURL>\(origin)/oai</baseURL>\
            <protocolVersion>2.0</protocolVersion><adminEmail>mock@example.org</adminEmail>\
            <earliestDatestamp>\(collection.skewedDatestamps ? "2024-08-15T13:51:17Z" : "2026-06-09T10:19:51Z")\
            </earliestDatestamp><deletedRecord>persistent</deletedRecord>\
            <granularity>\(granularity)</granularity></Identify>
            </OAI-PMH>
            """)
    }

    /// The `from`/`until` a token continues (`…!f=…!u=…`).
    private static func window(of token: String) -> (from: String?, until: String?) {
        var core = token.hasSuffix("|dc") ? String(token.dropLast(3)) : token
        if let marker = core.range(of: ".g", options: .backwards) { core = String(core[..<marker.lowerBound]) }
        var window: (from: String?, until: String?) = (nil, nil)
        for part in core.split(separator: "!").dropFirst() {
            if part.hasPrefix("f=") { window.from = String(part.dropFirst(2)) }
            if part.hasPrefix("u=") { window.until = String(part.dropFirst(2)) }
        }
        return window
    }

    /// The generation a token was issued in: `….g{n}` (none: 0).
    private static func generation(of token: String) -> Int {
        let core = token.hasSuffix("|dc") ? String(token.dropLast(3)) : token
        guard let marker = core.range(of: ".g", options: .backwards) else { return 0 }
        return Int(core[marker.upperBound...]) ?? -1
    }

    /// The page number in a token (`…+{page}/…`), and which format it continues.
    private static func page(of token: String) -> Int? {
        guard let plus = token.firstIndex(of: "+"), let slash = token.firstIndex(of: "/") else { return nil }
        return Int(token[token.index(after: plus)..<slash])
    }

    private static func prefix(of token: String) -> String {
        token.hasSuffix("|dc") ? "oai_dc" : "edm"
    }

    private func records(
        _ origin: String, _ listed: [RecordVersion], page: Int, prefix: String, generation: Int,
        window: (from: String?, until: String?), museum: Int
    ) -> MockResponse {
        let start = page * collection.pageSize
        let end = min(start + collection.pageSize, listed.count)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <responseDate>\(OAICollection.responseDate(generation: museum))</responseDate>
            <request verb="ListRecords" metadataPrefix="\(prefix)">\(origin)/oai</request>
            <ListRecords>

            """
        xml.reserveCapacity((end - start) * 2_200 + 1_000)
        for version in listed[start..<end] {
            xml += record(version, prefix: prefix, nested: page % 2 == 1)
        }
        if end < listed.count {
            let filter = (window.from.map { "!f=\($0)" } ?? "") + (window.until.map { "!u=\($0)" } ?? "")
            // A server bug some repositories have: from this page on, the token names the page it came with.
            let next = collection.repeatsTokenFrom.map { page >= $0 ? page : page + 1 } ?? page + 1
            let token =
                OAICollection.token(page: next) + filter + (generation == 0 ? "" : ".g\(generation)")
                + (prefix == "oai_dc" ? "|dc" : "")
            xml +=
                collection.omitCompleteListSize
                ? "<resumptionToken cursor=\"\(start)\">"
                : "<resumptionToken completeListSize=\"\(listed.count)\" cursor=\"\(start)\">"
            xml += MockHTTP.escapeXML(token) + "</resumptionToken>\n"
        } else if !collection.omitFinalToken, !collection.omitCompleteListSize {
            xml += "<resumptionToken completeListSize=\"\(listed.count)\" cursor=\"\(start)\"/>\n"
        }
        xml += "</ListRecords>\n</OAI-PMH>\n"
        return Self.xmlResponse(200, xml)
    }

    private func record(_ version: RecordVersion, prefix: String, nested: Bool) -> String {
        let number = version.number
        let uri = "https://id.rijksmuseum.nl/2001\(MockHTTP.padded(number, 5))"
        if version.isDeleted {
            return """
                <record><header status="deleted"><identifier>\(uri)</identifier>\
                <datestamp>\(version.datestamp)</datestamp></header></record>

                """
        }
        let object = OAICollection.object(number, revision: version.generation)
        let header =
            "<header><identifier>\(uri)</identifier><datestamp>\(version.datestamp)</datestamp>"
            + "<setSpec>260214</setSpec></header>"
        let metadata =
            prefix == "oai_dc"
            ? SyntheticCollection.dublinCoreRecord(object, uri: uri) : edm(object, uri: uri, nested: nested)
        return "<record>\(header)<metadata>\(metadata)</metadata></record>\n"
    }

    private func edm(_ object: SyntheticObject, uri: String, nested: Bool) -> String {
        let number = object.number
        let iiif = "https://iiif.micr.io/\(OAICollection.iiifID(number))"
        let image = "\(iiif)/full/max/0/default.jpg"
        let page = "https://www.rijksmuseum.nl/nl/collectie/\(OAICollection.objectNumber(number))"
        let agentURI = object.maker.map {
            "https://id.rijksmuseum.nl/21\(SyntheticCollection.makers.firstIndex(of: $0) ?? 0)"
        }
        let rich = SyntheticCollection.edm(object.details, nested: nested)
        let agent = object.maker.map { name in
            "<edm:Agent rdf:about=\"\(agentURI ?? "")\"><skos:prefLabel xml:lang=\"nl\">\(MockHTTP.escapeXML(name))"
                + "</skos:prefLabel><skos:prefLabel xml:lang=\"en\">\(MockHTTP.escapeXML(name))</skos:prefLabel>"
                + (object.details == nil ? "" : SyntheticCollection.agentFacts(name))
                + "<owl:sameAs rdf:resource=\"http://www.wikidata.org/entity/Q5598\"/></edm:Agent>"
        }
        let creator: String
        if let agent, let agentURI {
            creator = nested ? "<dc:creator>\(agent)</dc:creator>" : "<dc:creator rdf:resource=\"\(agentURI)\"/>"
        } else {
            creator = ""
        }
        // The type is the same concept in both shapes: beside the CHO when flat, inside `dc:type` when nested.
        let type =
            nested
            ? "<dc:type><skos:Concept rdf:about=\"https://id.rijksmuseum.nl/2201\"><skos:prefLabel xml:lang=\"en\">"
                + "painting</skos:prefLabel></skos:Concept></dc:type>"
            : "<dc:type rdf:resource=\"https://id.rijksmuseum.nl/2201\"/>"
        let cho = """
            <edm:ProvidedCHO rdf:about="\(uri)"><dc:identifier>\(OAICollection.objectNumber(number))</dc:identifier>\
            <dc:title xml:lang="nl">Studie \(number + 1)</dc:title>\
            <dc:title xml:lang="en">\(MockHTTP.escapeXML(object.title))</dc:title>\(creator)\
            \(type)<dcterms:created xml:lang="en">\(object.date)</dcterms:created>\(rich.fields)<edm:type>IMAGE</edm:type>\
            </edm:ProvidedCHO>
            """
        var aggregation = "<ore:Aggregation rdf:about=\"\(uri)#aggregation\">"
        aggregation +=
            nested ? "<edm:aggregatedCHO>\(cho)</edm:aggregatedCHO>" : "<edm:aggregatedCHO rdf:resource=\"\(uri)\"/>"
        if object.hasImage {
            aggregation +=
                nested
                ? "<edm:isShownBy><edm:WebResource rdf:about=\"\(image)\"><svcs:has_service rdf:resource=\"\(iiif)\"/>"
                    + "</edm:WebResource></edm:isShownBy>"
                : "<edm:isShownBy rdf:resource=\"\(image)\"/><edm:object rdf:resource=\"\(image)\"/>"
        }
        aggregation += "<edm:isShownAt rdf:resource=\"\(page)\"/>"
        let rights = object.details?.rights ?? "http://creativecommons.org/publicdomain/mark/1.0/"
        aggregation += "<edm:rights rdf:resource=\"\(rights)\"/>"
        aggregation += "<edm:dataProvider>Rijksmuseum</edm:dataProvider></ore:Aggregation>"
        var rdf = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
            xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:edm="http://www.europeana.eu/schemas/edm/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" \
            xmlns:skos="http://www.w3.org/2004/02/skos/core#" xmlns:owl="http://www.w3.org/2002/07/owl#" \
            xmlns:svcs="http://rdfs.org/sioc/services#" xmlns:rdaGr2="http://rdvocab.info/ElementsGr2/" \
            xmlns:wgs84_pos="http://www.w3.org/2003/01/geo/wgs84_pos#">
            """
        if nested {
            rdf += aggregation + rich.nodes
        } else {
            rdf += aggregation + cho
            if object.hasImage {
                rdf +=
                    "<edm:WebResource rdf:about=\"\(image)\"><svcs:has_service rdf:resource=\"\(iiif)\"/></edm:WebResource>"
            }
            rdf += (agent ?? "") + rich.nodes
            rdf +=
                "<skos:Concept rdf:about=\"https://id.rijksmuseum.nl/2201\"><skos:prefLabel xml:lang=\"en\">painting"
                + "</skos:prefLabel></skos:Concept>"
        }
        return rdf + "</rdf:RDF>"
    }

    private func error(
        _ origin: String, _ code: String, _ message: String, status: Int? = nil, museum: Int = 0
    ) -> MockResponse {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">\
            <responseDate>\(OAICollection.responseDate(generation: museum))</responseDate>\
            <request>\(origin)/oai</request><error code="\(code)">\(MockHTTP.escapeXML(message))</error>\
            </OAI-PMH>
            """
        return Self.xmlResponse(status ?? collection.errorStatus, xml)
    }

    static func xmlResponse(_ status: Int, _ xml: String) -> MockResponse {
        MockResponse(
            status: status,
            headers: ["Content-Type": "text/xml;charset=UTF-8"],
            body: Data(xml.utf8)
        )
    }
}
