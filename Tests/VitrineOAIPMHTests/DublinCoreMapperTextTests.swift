import Foundation
import Testing

@testable import VitrineOAIPMH

/// The Dublin Core mapper reads most creators and identifiers from their bytes; what it makes of them must be what
/// the character-by-character reading makes.
@Suite struct DublinCoreMapperTextTests {
    static let creators = [
        "schilder: Rijn, Rembrandt van", "Rijn, Rembrandt van", "Schilder: Hals, Frans", "a: Hals, Frans",
        "schilder:", "schilder:   ", "schilder:\tJan Steen\t", "schilder: Émile Bernard", "schilder: Ångström ",
        "peintre-graveur: Callot, Jacques", "maître: Anonyme", "schilder:\u{301} Hals", "schilder:\u{A0}Hals\u{A0}",
        "schilder: Hals\u{2003}", "schilder: Hals ́", "graveur en uitgever: Visscher, Claes Jansz.",
        "een rol die veel te lang is om een rol te zijn: Naam", "http://example.org/agent:1", "ni: 日本画家",
        "schilder : Hals", "schilder:Hals", ":Hals", "", "schilder: \u{2028}Hals", "http://viaf.org/viaf/64013650",
        "urn:isni:0000000121032683", "info:ulan/500011051", "ètcher: Hals", "graveur://x",
    ]

    @Test(arguments: creators)
    func `a creator's role is dropped as the character reading dropped it`(_ creator: String) {
        #expect(DublinCoreRecordMapper.withoutRole(creator) == DublinCoreRecordMapper.roleDroppedByCharacters(creator))
    }

    @Test func `a lower-case role before a colon is dropped, and only that`() {
        #expect(DublinCoreRecordMapper.withoutRole("schilder: Rijn, Rembrandt van") == "Rijn, Rembrandt van")
        #expect(DublinCoreRecordMapper.withoutRole("Schilder: Hals") == "Schilder: Hals")
        #expect(DublinCoreRecordMapper.withoutRole("schilder:\u{A0}Hals\u{A0}") == "Hals")
        #expect(DublinCoreRecordMapper.withoutRole("schilder:   ") == "", "a role alone names no one")
        // Found by a check of the data: a creator given as an authority's address lost its scheme.
        #expect(DublinCoreRecordMapper.withoutRole("http://viaf.org/viaf/64013650") == "http://viaf.org/viaf/64013650")
        #expect(DublinCoreRecordMapper.withoutRole("urn:isni:0000000121032683") == "urn:isni:0000000121032683")
    }

    static let identifiers = [
        "SK-A-1", "RP-P-OB-1234", "", String(repeating: "x", count: 64), String(repeating: "x", count: 65),
        "Vol. 3, no. 2 (1999)", "ISSN\t1234-5678", "nr.\u{A0}12", "SK-C-5\u{301}", "№ 12", "über-1",
        String(repeating: "é", count: 64), String(repeating: "é", count: 65), "a\r\nb", "line\u{2028}break",
    ]

    @Test(arguments: identifiers)
    func `an identifier is a token as the character reading said`(_ identifier: String) {
        let byCharacters = identifier.count <= 64 && !identifier.contains(where: \.isWhitespace)
        #expect(DublinCoreRecordMapper.isToken(identifier) == byCharacters)
    }
}
