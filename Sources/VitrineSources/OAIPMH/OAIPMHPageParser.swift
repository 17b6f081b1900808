import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One OAI-PMH response as the streaming parser reads it.
package struct OAIPMHResponse: Sendable, Equatable {
    /// One `<record>`: its header, and its metadata as a small tree.
    package struct Record: Sendable, Equatable {
        package var identifier: String
        package var datestamp: String?
        /// `<header status="deleted">`.
        package var isDeleted: Bool
        /// The single element inside `<metadata>` (`rdf:RDF`, `oai_dc:dc`), when there is one.
        package var metadata: XMLElementNode?
    }

    package var records: [Record] = []
    /// The `<resumptionToken>`'s text; `nil` when the element is absent or empty (the end of the list).
    package var resumptionToken: String?
    /// `completeListSize`, when the server sends it.
    package var completeListSize: Int?
    /// An OAI-PMH `<error code="…">message</error>`.
    package var error: (code: String, message: String)?

    package static func == (lhs: OAIPMHResponse, rhs: OAIPMHResponse) -> Bool {
        lhs.records == rhs.records && lhs.resumptionToken == rhs.resumptionToken
            && lhs.completeListSize == rhs.completeListSize && lhs.error?.code == rhs.error?.code
            && lhs.error?.message == rhs.error?.message
    }
}

/// Reads an OAI-PMH response with Foundation's SAX `XMLParser` (libxml2): records are built one at a time as
/// small trees, the page never as a whole document. External entities are never resolved.
package enum OAIPMHPageParser {
    package static let namespace = "http://www.openarchives.org/OAI/2.0/"
    /// A response larger than this is refused rather than parsed.
    package static let maximumSize = 64 << 20

    package static func parse(_ data: Data) throws(OAIPMHParseError) -> OAIPMHResponse {
        guard data.count <= maximumSize else {
            throw OAIPMHParseError("the response is larger than \(maximumSize >> 20) MB")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        let reader = Reader()
        parser.delegate = reader
        guard parser.parse(), reader.sawRoot else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not an OAI-PMH document"
            let line = parser.lineNumber
            throw OAIPMHParseError(reader.sawRoot ? "malformed XML at line \(line): \(reason)" : reason)
        }
        return reader.response
    }

    /// The SAX delegate: keeps the OAI elements it needs and a tree of the current record only.
    private final class Reader: NSObject, XMLParserDelegate {
        var response = OAIPMHResponse()
        var sawRoot = false
        /// The open elements of the current record, outermost first.
        private var recordStack: [XMLElementNode] = []
        /// Text of the OAI element being read outside records (token, error).
        private var capture: String?
        private var errorCode: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let namespace = namespaceURI ?? ""
            let attributes = Dictionary(
                attributeDict.map { (Self.localName($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            if !recordStack.isEmpty || (elementName == "record" && namespace == OAIPMHPageParser.namespace) {
                recordStack.append(XMLElementNode(namespace: namespace, name: elementName, attributes: attributes))
                return
            }
            guard namespace == OAIPMHPageParser.namespace else { return }
            switch elementName {
            case "OAI-PMH":
                sawRoot = true
            case "resumptionToken":
                capture = ""
                response.completeListSize = attributes["completeListSize"].flatMap { Int($0) }
            case "error":
                capture = ""
                errorCode = attributes["code"] ?? "unknown"
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !recordStack.isEmpty {
                recordStack[recordStack.count - 1].text += string
            } else if capture != nil {
                capture? += string
            }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            if var node = recordStack.popLast() {
                node.text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
                if recordStack.isEmpty {
                    response.records.append(Self.record(from: node))
                } else {
                    recordStack[recordStack.count - 1].children.append(node)
                }
                return
            }
            guard namespaceURI == OAIPMHPageParser.namespace, let text = capture else { return }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch elementName {
            case "resumptionToken":
                response.resumptionToken = trimmed.isEmpty ? nil : trimmed
            case "error":
                response.error = (errorCode ?? "unknown", trimmed)
            default:
                break
            }
            capture = nil
        }

        private static func record(from node: XMLElementNode) -> OAIPMHResponse.Record {
            let header = node.child("header")
            return OAIPMHResponse.Record(
                identifier: header?.child("identifier")?.text ?? "",
                datestamp: header?.child("datestamp")?.nonBlankText,
                isDeleted: header?.attributes["status"] == "deleted",
                metadata: node.child("metadata")?.children.first
            )
        }

        private static func localName(_ name: String) -> String {
            name.split(separator: ":").last.map(String.init) ?? name
        }
    }
}

/// A parse failure's reason, for the source to wrap in a `HarvestFailure`.
package struct OAIPMHParseError: Error, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }
}
