import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// Issue 34, item 7: with `--set`, records that left the set stayed in the catalog forever. A night also lists the
/// headers of every record changed since the last harvest, without the set; a header that no longer names the set
/// is a record that left it.
@Suite struct OAISetLeaversTests {
    private static let page = """
        <?xml version="1.0" encoding="UTF-8"?>
        <?xml-stylesheet type="text/xsl" href="/oai2.xsl"?>
        <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
        <responseDate>2026-11-24T10:00:00Z</responseDate>
        <request verb="ListIdentifiers">https://repository.example/oai</request>
        <ListIdentifiers>
        <header><identifier>oai:x:stays</identifier><datestamp>2026-11-23T01:00:00Z</datestamp>\
        <setSpec>collection</setSpec></header>
        <header><identifier>oai:x:inside</identifier><datestamp>2026-11-23T02:00:00Z</datestamp>\
        <setSpec>other</setSpec><setSpec>collection:prints</setSpec></header>
        <header><identifier>oai:x:left</identifier><datestamp>2026-11-23T03:00:00Z</datestamp>\
        <setSpec>collections</setSpec></header>
        <header><identifier>oai:x:setless</identifier><datestamp>2026-11-23T04:00:00Z</datestamp></header>
        <header status="deleted"><identifier>oai:x:gone</identifier><datestamp>2026-11-23T05:00:00Z</datestamp>\
        <setSpec>collection</setSpec></header>
        <resumptionToken completeListSize="9" cursor="0">next-5</resumptionToken>
        </ListIdentifiers>
        </OAI-PMH>
        """

    @Test func `headers that do not name the set, and deleted ones, are records gone from the collection`() async throws
    {
        let listing = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("https://repository.example/oai"),
            metadataPrefix: "oai_dc", set: "collection")
        let leavers = try #require(listing.leavers(since: "2026-11-22T10:00:00Z"))
        #expect(
            try leavers.request(for: .token(nil)).url.absoluteString
                == "https://repository.example/oai?verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-11-22T10%3A00%3A00Z"
        )
        #expect(
            try leavers.request(for: .token("next-5")).url.absoluteString
                == "https://repository.example/oai?verb=ListIdentifiers&resumptionToken=next-5")
        let page = try await leavers.decode(SourceResponse(status: 200, body: Data(Self.page.utf8)), page: .token(nil))
        #expect(
            page.records == [
                .deleted(recordID: "oai:x:left", datestamp: "2026-11-23T03:00:00Z"),
                .deleted(recordID: "oai:x:setless", datestamp: "2026-11-23T04:00:00Z"),
                .deleted(recordID: "oai:x:gone", datestamp: "2026-11-23T05:00:00Z"),
            ])
        #expect(page.continuation == .next(.token("next-5")))
        // Without a set the collection is the whole repository: nothing can leave it.
        let whole = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("https://repository.example/oai"),
            metadataPrefix: "oai_dc")
        #expect(whole.leavers(since: "2026-11-22") == nil)
    }

    @Test func `a ListRecords page's headers keep their sets`() throws {
        let parsed = try OAIPMHPageParser.parse(Data(Self.page.utf8))
        #expect(
            parsed.records.map(\.sets) == [
                ["collection"], ["other", "collection:prints"], ["collections"], [], ["collection"],
            ])
        #expect(parsed.records.map(\.isDeleted) == [false, false, false, false, true])
    }
}
