import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// The details each OAI-PMH record shape gives (issue 36, item 1): EDM in both shapes, with concepts, places and
/// agents resolved in the record and labels in `--language`; Dublin Core text.
@Suite struct OAIRecordDetailsTests {
    private func objects(_ directory: String, _ name: String, language: String = "en") throws -> [ArtObject] {
        let response = try OAIPMHPageParser.parse(
            try Fixtures.data(directory, name), mapper: OAIRecordMapper(language: language))
        return response.outcomes.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    private static let publicDomainMark = Rights(
        url: "http://creativecommons.org/publicdomain/mark/1.0/", label: "Public Domain Mark", isOpen: true)
    private static let inCopyright = Rights(
        url: "http://rightsstatements.org/vocab/InC/1.0/", label: "In Copyright", isOpen: false)

    @Test func `a flat EDM record resolves its concepts, place and agent, in English by default`() throws {
        let nightWatch = try #require(try objects("rijksmuseum-oai", "edm-rich.xml").first)
        #expect(nightWatch.maker == "Rembrandt van Rijn")
        #expect(
            nightWatch.details
                == ObjectDetails(
                    description: "Rembrandt’s largest, most famous canvas was made for the Arquebusiers guild hall.",
                    objectType: "painting",
                    materials: ["canvas", "oil paint (paint)"],
                    dimensions: "height 379.5 cm x width 453.5 cm",
                    place: "Amsterdam",
                    // The Iconclass notation and the reference to a concept the record lacks are not subjects.
                    subjects: ["militia"],
                    yearBegin: 1642,
                    yearEnd: 1642,
                    makers: [
                        ObjectDetails.Maker(
                            name: "Rembrandt van Rijn", role: "painter", lifeDates: "1606–1669, born in Leiden",
                            sortName: "Rijn, Rembrandt van")
                    ],
                    rights: Self.publicDomainMark,
                    // Provenance in the chosen language; the part it belongs to is not in the record: its address.
                    otherFacts: [
                        .init(label: "Provenance", value: "Kloveniersdoelen, Amsterdam; Town Hall, 1715"),
                        .init(label: "Part of", value: "https://id.rijksmuseum.nl/260214"),
                        .init(label: "Other types", value: "militia piece"),
                        .init(label: "Coordinates", value: "52.37, 4.89"),
                    ]))
    }

    /// Found by a hostile check: `en-GB` text was passed over for the Dutch with `--language en`, and of two
    /// descriptions (an abstract and a note) or two extents only the first was kept.
    @Test func `regional language tags are their language's, and every description and extent is kept`() throws {
        let xml = """
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><record>
            <header><identifier>oai:x:1</identifier><datestamp>2026-01-01</datestamp></header><metadata>
            <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier>X-1</dc:identifier>
            <dc:title xml:lang="nl">Het Melkmeisje</dc:title><dc:title xml:lang="en-GB">The Milkmaid</dc:title>
            <dc:description xml:lang="nl">Een meid giet melk.</dc:description>
            <dc:description xml:lang="EN-us">A maid pours milk.</dc:description>
            <dc:description xml:lang="en-us">Bought in 1908.</dc:description>
            <dc:description xml:lang="en-GB">A maid pours milk.</dc:description>
            <dcterms:extent xmlns:dcterms="http://purl.org/dc/terms/">height 45.5 cm</dcterms:extent>
            <dcterms:extent xmlns:dcterms="http://purl.org/dc/terms/">weight 2 kg</dcterms:extent>
            </oai_dc:dc></metadata></record></ListRecords></OAI-PMH>
            """
        let response = try OAIPMHPageParser.parse(Data(xml.utf8), mapper: OAIRecordMapper(language: "en"))
        guard case .object(let milkmaid) = try #require(response.outcomes.first) else {
            Issue.record("\(response.outcomes)")
            return
        }
        #expect(milkmaid.title == "The Milkmaid")
        // One tag of a language, in any case: the first English one here (`EN-us`), not every region's.
        #expect(milkmaid.details.description == "A maid pours milk.\n\nBought in 1908.")
        #expect(milkmaid.details.dimensions == "height 45.5 cm\nweight 2 kg")
        // A description with markup (in CDATA) is its text, never tags on a page.
        #expect(
            OAIDetails.block(
                ["<p>First <b>bold</b></p><p>Second &amp; last</p>", "a < b"], separator: "\n\n", html: true)
                == "First bold\n\nSecond & last\n\na < b")
        // Prose with a `<` in it is not markup (found by a review): nothing after it is lost.
        for prose in ["Signed lower right <RHL 1631>. Height <h>: 5 cm", "x<y holds for all x"] {
            #expect(OAIDetails.block([prose], separator: "\n\n", html: true) == prose)
        }
    }

    @Test func `--language nl reads the Dutch labels, falling back to English where there is no Dutch`() throws {
        let records = try objects("rijksmuseum-oai", "edm-rich.xml", language: "nl")
        let nightWatch = try #require(records.first)
        #expect(nightWatch.title == "De Nachtwacht")
        #expect(
            nightWatch.details.description
                == "Schutters van wijk II onder leiding van\nkapitein Frans Banninck Cocq.")
        #expect(nightWatch.details.objectType == "schilderij")
        #expect(nightWatch.details.materials == ["doek", "olieverf"])
        #expect(nightWatch.details.dimensions == "hoogte 379,5 cm x breedte 453,5 cm")
        #expect(nightWatch.details.subjects == ["schutterij"])
        #expect(nightWatch.details.place == "Amsterdam")
        #expect(nightWatch.details.makers.first?.role == "schilder")
        #expect(
            nightWatch.details.otherFacts.prefix(3) == [
                .init(label: "Provenance", value: "Kloveniersdoelen, Amsterdam; Stadhuis, 1715"),
                .init(label: "Part of", value: "https://id.rijksmuseum.nl/260214"),
                .init(label: "Other types", value: "schuttersstuk"),
            ])
        let milkmaid = try #require(records.last)
        #expect(milkmaid.details.subjects == ["melkmeid"])
        #expect(
            milkmaid.details.makers == [
                ObjectDetails.Maker(name: "Johannes Vermeer", role: "painter", lifeDates: "born 1632")
            ])
    }

    @Test func `a nested EDM record reads its nested concept, literal subjects and place, and its rights`() throws {
        let milkmaid = try #require(try objects("rijksmuseum-oai", "edm-rich.xml").last)
        #expect(milkmaid.maker == "Johannes Vermeer")
        #expect(
            milkmaid.details
                == ObjectDetails(
                    objectType: "painting", place: "Delft", subjects: ["milkmaid"], yearBegin: 1660, yearEnd: 1660,
                    makers: [ObjectDetails.Maker(name: "Johannes Vermeer", role: "painter", lifeDates: "born 1632")],
                    rights: Self.inCopyright,
                    // A nested concept's label; a blank language is none.
                    otherFacts: [.init(label: "Part of", value: "Gallery of Honour")]))
    }

    /// Found by a hostile check: Europeana-style records date an object by a time span (`edm:TimeSpan`) that
    /// `dcterms:created` or `dc:date` points at, flat or nested; such objects came out undated.
    @Test(
        arguments: [
            // Flat: the span beside the object, by its address; its label in the chosen language.
            (
                #"<dcterms:created rdf:resource="http://semium.org/time/1642"/>"#,
                #"<edm:TimeSpan rdf:about="http://semium.org/time/1642">"#
                    + #"<skos:prefLabel xml:lang="nl">anno 1642</skos:prefLabel>"#
                    + #"<skos:prefLabel xml:lang="en">1642</skos:prefLabel><edm:begin>1642-01-01</edm:begin>"#
                    + "</edm:TimeSpan>",
                "1642", 1642, 1642
            ),
            // Nested inside `dc:date`.
            (
                ##"<dc:date><edm:TimeSpan rdf:about="#t"><skos:prefLabel>17th century</skos:prefLabel>"##
                    + "</edm:TimeSpan></dc:date>",
                "", "17th century", 1600, 1699
            ),
            // Text wins over a span; a span the record does not describe names nothing.
            (
                ##"<dcterms:created rdf:resource="#t"/><dcterms:created>c. 1650</dcterms:created>"##, "", "c. 1650",
                1650, 1650
            ),
            (#"<dcterms:created rdf:resource="http://semium.org/time/elsewhere"/>"#, "", nil, nil, nil),
        ] as [(String, String, String?, Int?, Int?)])
    func `a date given as a time span is read by its label`(
        date: String, beside: String, shown: String?, begin: Int?, end: Int?
    ) throws {
        let page = """
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><record>
            <header><identifier>oai:x:1</identifier><datestamp>2026-01-01</datestamp></header>
            <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
              xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/"
              xmlns:dcterms="http://purl.org/dc/terms/" xmlns:skos="http://www.w3.org/2004/02/skos/core#">
            <edm:ProvidedCHO rdf:about="https://id.example/object/1"><dc:identifier>X-1</dc:identifier>
            <dc:title>Militia company</dc:title>\(date)</edm:ProvidedCHO>\(beside)
            </rdf:RDF></metadata></record></ListRecords></OAI-PMH>
            """
        let parsed = try OAIPMHPageParser.parse(Data(page.utf8), mapper: OAIRecordMapper(language: "en"))
        guard case .object(let object) = parsed.outcomes.first else {
            Issue.record("expected an object, got \(parsed.outcomes)")
            return
        }
        #expect(object.date == shown)
        #expect(object.details.yearBegin == begin && object.details.yearEnd == end, "\(object.details)")
    }

    @Test func `the recorded EDM shapes give rights, type and description where they have them`() throws {
        let flat = try objects("rijksmuseum-oai", "edm-flat.xml")
        #expect(flat.map(\.details.rights?.label) == ["Public Domain Mark", "CC0 1.0", "In Copyright"])
        // The type concept is not in the record: no type, rather than its address.
        #expect(flat[0].details.objectType == nil && flat[0].details.subjects == ["militia"])
        #expect(flat[0].details.description == "Schutters van wijk II onder leiding van kapitein Frans Banninck Cocq.")
        #expect(flat[1].details.yearBegin == 1830 && flat[1].details.yearEnd == 1832)
        #expect(flat[2].details.yearBegin == 1920)
        let nested = try objects("rijksmuseum-oai", "edm-nested.xml")
        #expect(nested.map(\.details.makers) == [[ObjectDetails.Maker(name: "Johannes Vermeer")]])
    }

    @Test func `Dublin Core: prose rights, a MIME type and a link are no material, an inverted creator sorts`() throws {
        let records = try objects("oai-dc", "rich-dublin-core.xml")
        #expect(records.count == 2)
        let lion = records[0]
        #expect(lion.maker == "Rijn, Rembrandt van")
        #expect(
            lion.details
                == ObjectDetails(
                    description: "A lion resting, drawn\nwith a reed pen.\n\nOnce in the collection of\nJ. Six.",
                    objectType: "drawing",
                    materials: ["pen and brown ink"],
                    place: "Amsterdam",
                    subjects: ["lion", "animal studies"],
                    yearBegin: 1650,
                    yearEnd: 1652,
                    makers: [
                        ObjectDetails.Maker(
                            name: "Rijn, Rembrandt van", role: "tekenaar", sortName: "Rijn, Rembrandt van"),
                        ObjectDetails.Maker(name: "Bol, Ferdinand", sortName: "Bol, Ferdinand"),
                    ],
                    rights: Rights(
                        url: nil, label: "Copyright the estate; reproduction by permission only", isOpen: false),
                    otherFacts: [
                        .init(label: "Language", value: "nl"),
                        .init(label: "Publisher", value: "Rijksmuseum, Print Room"),
                        .init(label: "Contributors", value: "Six, Jan; Hinloopen, Jacob"),
                        .init(label: "Source", value: "Album Six, folio 12"),
                        .init(label: "Other types", value: "study"),
                        .init(label: "Coverage", value: "17th century"),
                        // A MIME type is the format, never a material.
                        .init(label: "Format", value: "image/jpeg"),
                    ]))
        // Empty and "None" values are none; of a prose statement and a license URI, the URI shows the rights and
        // the prose is kept beside it.
        #expect(
            records[1].details
                == ObjectDetails(
                    // A type that says nothing does not hide the next one.
                    objectType: "print", yearBegin: 1646, yearEnd: 1646,
                    makers: [ObjectDetails.Maker(name: "Jan van Goyen")],
                    rights: Rights(
                        url: "http://creativecommons.org/licenses/by/4.0/", label: "CC BY 4.0", isOpen: true),
                    otherFacts: [.init(label: "Rights statement", value: "No known restrictions")]
                ))
    }

    @Test func `text rules: Iconclass notations, MIME types and inverted names`() {
        #expect(OAIDetails.isIconclass("45D12") && OAIDetails.isIconclass("25F23(LION)"))
        #expect(
            !OAIDetails.isIconclass("1642") && !OAIDetails.isIconclass("militia") && !OAIDetails.isIconclass("17th C"))
        #expect(OAIDetails.isMIMEType("image/jpeg") && OAIDetails.isMIMEType("application/pdf; charset=binary"))
        #expect(!OAIDetails.isMIMEType("oil on canvas") && !OAIDetails.isMIMEType("pen/ink"))
        // A measurement is dimensions, not a material.
        for measurement in ["height 10 cm", "24 x 30 cm.", "35 mm", "10cm", "8 1/2 x 11 in.", "1.5 kg", "24 cm."] {
            #expect(OAIDetails.isMeasurement(measurement), "\(measurement)")
        }
        for format in ["pen and brown ink", "oil on canvas", "3 prints", "Volume 1 in 3 parts", "1 photograph"] {
            #expect(!OAIDetails.isMeasurement(format), "\(format)")
        }
        #expect(OAIDetails.isInverted("Rijn, Rembrandt van") && !OAIDetails.isInverted("Rembrandt van Rijn"))
        #expect(!OAIDetails.isInverted("Smith, John, 1900-1980") && !OAIDetails.isInverted("Amsterdam,"))
        // The first 64 values of a field, each once (here one of them twice).
        let block = OAIDetails.block(["x", "x"] + (0..<1_000).map(String.init), separator: "\n")
        #expect(block?.split(separator: "\n").count == 63 && block?.hasPrefix("x\n0\n") == true)
        #expect(DetailText.lifeDates(born: "1606-07-15", died: "1669") == "1606–1669")
        #expect(DetailText.lifeDates(born: nil, died: "c. 1669") == "died c. 1669")
        #expect(DetailText.lifeDates(born: "1632", died: nil, place: "Delft") == "born 1632 in Delft")
        #expect(DetailText.lifeDates(born: nil, died: nil, place: "Delft") == "born in Delft")
    }
}
