import CLibXML2
import Foundation
import VitrineCore

/// Reads an OAI-PMH response with libxml2's streaming (SAX2) parser: each record's fields are collected as its
/// elements stream past (no tree of a record or of the page is ever built), and elements no mapper reads are
/// skipped with everything inside them. No external entity or DTD is ever loaded, nothing is fetched
/// from the network, and a response over 64 MB is refused.
///
/// Why libxml2's SAX2 interface and not Foundation's `XMLParser`, which wraps the same parser: on Linux
/// `XMLParser` turns every element name, namespace and attribute into Foundation strings and dictionaries, even
/// for a delegate that ignores them, and that costs more than the parse itself. Names here are interned by
/// libxml2 and looked up once per page; values are copied as bytes into the record's store, and strings are made
/// only by the mapper, of the values an object keeps.
package enum OAIPMHPageParser {
    package static let namespace = "http://www.openarchives.org/OAI/2.0/"
    /// A response larger than this is refused rather than parsed.
    package static let maximumSize = 64 << 20

    /// Parses a page. With a `mapper`, each record is mapped as soon as it ends and only its outcome is kept
    /// (the collector's storage is then reused from record to record).
    package static func parse(_ data: Data, mapper: OAIRecordMapper? = nil) throws(OAIPMHParseError)
        -> OAIPMHResponse
    {
        let parser = try PushParser(data, mapper: mapper)
        _ = data.withUnsafeBytes { parser.feed($0, last: true) }
        return try parser.finish()
    }

    /// Parses a page as `parse(_:mapper:)` does, `sliceSize` bytes at a time, letting other tasks run between
    /// slices. A page is long to read next to the network's work (the next request of a chain, the response
    /// coming in), which then waits a slice at most instead of a whole page.
    package static func parse(_ data: Data, mapper: OAIRecordMapper? = nil, yieldingEvery sliceSize: Int)
        async throws(OAIPMHParseError) -> OAIPMHResponse
    {
        let parser = try PushParser(data, mapper: mapper)
        var offset = 0
        while true {
            let end = min(offset + max(1, sliceSize), data.count)
            let last = end == data.count
            let read = data.withUnsafeBytes {
                parser.feed(UnsafeRawBufferPointer(rebasing: $0[offset..<end]), last: last)
            }
            guard read, !last else { break }
            offset = end
            await Task.yield()
        }
        return try parser.finish()
    }
}

/// libxml2's push parser and the `SAXReader` its callbacks fill: fed a document a slice at a time, then finished.
/// No network, no DTD loading, no entity substitution (`XML_PARSE_NOENT` stays off): a document cannot make the
/// parser read a file or a URL. Errors are collected, not printed.
final class PushParser {
    private let state: UnsafeMutablePointer<SAXReader>
    private let context: xmlParserCtxtPtr
    private var problem: String?

    init(_ data: Data, mapper: OAIRecordMapper?) throws(OAIPMHParseError) {
        guard data.count <= OAIPMHPageParser.maximumSize else {
            throw OAIPMHParseError("the response is larger than \(OAIPMHPageParser.maximumSize >> 20) MB")
        }
        guard !data.isEmpty else { throw OAIPMHParseError("empty response") }
        let state = UnsafeMutablePointer<SAXReader>.allocate(capacity: 1)
        state.initialize(to: SAXReader(mapper: mapper))
        var handler = SAXReader.handler
        guard let context = xmlCreatePushParserCtxt(&handler, UnsafeMutableRawPointer(state), nil, 0, nil) else {
            state.deinitialize(count: 1)
            state.deallocate()
            throw OAIPMHParseError("the XML parser could not start")
        }
        xmlCtxtUseOptions(
            context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
        self.state = state
        self.context = context
    }

    deinit {
        // A document with a DOCTYPE makes libxml2 build a document node for its DTD, which freeing the context
        // leaves behind (found by the OAI-PMH fuzz target): one leak per such page, page after page.
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next slice of the document; `last` ends it. `false` once the document is found malformed.
    func feed(_ bytes: UnsafeRawBufferPointer, last: Bool) -> Bool {
        guard problem == nil else { return false }
        let status = xmlParseChunk(
            context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), last ? 1 : 0)
        guard status != 0 || context.pointee.wellFormed == 0 else { return true }
        if let error = xmlCtxtGetLastError(context), let message = error.pointee.message {
            let text = String(cString: message).trimmingASCIIWhitespace()
            problem = state.pointee.sawRoot ? "malformed XML at line \(error.pointee.line): \(text)" : text
        } else {
            problem = "malformed XML"
        }
        return false
    }

    /// The response read, or what was wrong with the document.
    func finish() throws(OAIPMHParseError) -> OAIPMHResponse {
        if let problem { throw OAIPMHParseError(problem) }
        guard state.pointee.sawRoot else { throw OAIPMHParseError("not an OAI-PMH document") }
        return state.pointee.response
    }
}
