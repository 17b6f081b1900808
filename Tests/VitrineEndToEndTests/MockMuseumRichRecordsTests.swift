import Foundation
import Testing
import VitrineHTTP
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// The mock museum's EDM records carry rich fields for most records, and a night's revisions change them, so that
/// the store's tests can check that a night carries changed details (issue 36).
@Suite struct MockMuseumRichRecordsTests {
    private func firstPage(_ museum: MockMuseum, prefix: String) async throws -> [ArtObject] {
        let source = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url(museum.oaiBaseURL), metadataPrefix: prefix)
        let response = try await AsyncHTTPTransport().fetch(try source.request(for: .token(nil)))
        let page = try await source.decode(response, page: .token(nil))
        return page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func `most generated records are rich, in EDM and Dublin Core, and a revision changes their details`()
        async throws
    {
        var collection = OAICollection(count: 60, pageSize: 30)
        collection.generations = [ChangeGeneration(revised: [1, 2, 5])]
        let museum = try await MockMuseum.oaiPMH(collection)
        defer { Task { await museum.stop() } }

        let before = try await firstPage(museum, prefix: "edm")
        let rich = before.filter { $0.details.description != nil }
        #expect(rich.count > before.count * 3 / 4)
        let one = try #require(before.first { $0.id == OAICollection.objectNumber(1) })
        let expected = SyntheticCollection.details(1)
        #expect(one.details.description == expected.description)
        #expect(one.details.materials == expected.materials && one.details.subjects == expected.subjects)
        #expect(one.details.place == expected.place && one.details.dimensions == expected.dimensions)
        #expect(one.details.rights?.url == expected.rights && one.details.objectType == "painting")
        #expect(one.details.makers.first?.lifeDates != nil && one.details.makers.first?.role == "painter")
        let dublinCore = try await firstPage(museum, prefix: "oai_dc")
        #expect(dublinCore.first { $0.id == OAICollection.objectNumber(1) }?.details.materials == expected.materials)

        var faults = MockFaults()
        faults.museumGeneration = 1
        await museum.setFaults(faults)
        let after = try await firstPage(museum, prefix: "edm")
        let revised = try #require(after.first { $0.id == OAICollection.objectNumber(1) })
        #expect(revised.details.description != one.details.description)
        #expect(revised.details.rights?.label == "CC BY 4.0" && one.details.rights?.isOpen == true)
        let untouched = try #require(after.first { $0.id == OAICollection.objectNumber(3) })
        #expect(untouched.details == before.first { $0.id == OAICollection.objectNumber(3) }?.details)
    }
}
