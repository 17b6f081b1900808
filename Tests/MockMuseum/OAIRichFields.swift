/// The rich fields of the mock museum's records (issue 36): descriptions of a few hundred characters, materials,
/// dimensions, subjects and places as concepts in the record, makers' life dates and occupation, and rights (most
/// public domain, some CC BY, a few in copyright). Everything follows from the record's number and revision.
extension SyntheticCollection {
    static let materials = [("canvas", "doek"), ("oil paint", "olieverf"), ("panel", "paneel"), ("paper", "papier")]
    static let subjects = [
        ("portrait", "portret"), ("landscape", "landschap"), ("still life", "stilleven"), ("ships", "schepen"),
        ("winter", "winter"), ("flowers", "bloemen"),
    ]
    static let places = ["Amsterdam", "Haarlem", "Delft", "Leiden", "Utrecht"]
    static let rights = [
        "http://creativecommons.org/publicdomain/mark/1.0/", "http://creativecommons.org/publicdomain/mark/1.0/",
        "http://creativecommons.org/publicdomain/mark/1.0/", "http://creativecommons.org/publicdomain/zero/1.0/",
        "http://creativecommons.org/publicdomain/mark/1.0/", "https://creativecommons.org/licenses/by/4.0/",
        "http://creativecommons.org/publicdomain/mark/1.0/", "http://creativecommons.org/publicdomain/mark/1.0/",
        "http://creativecommons.org/publicdomain/mark/1.0/", "http://rightsstatements.org/vocab/InC/1.0/",
    ]
    private static let phrases = [
        "The painter has placed the figures against a light background, so that their silhouettes stand out.",
        "Light falls from a window at the upper left and gathers on the faces and hands.",
        "X-radiographs show that the composition was changed several times while the work was in progress.",
        "The work was long attributed to a pupil, but recent research returned it to the master's own hand.",
        "A preparatory drawing for the central group survives in the print room.",
        "The frame is original and bears the arms of the family that commissioned the work.",
    ]

    /// The details of record `number` as first loaded.
    package static func details(_ number: Int) -> SyntheticDetails {
        let first = phrases[number % phrases.count]
        let second = phrases[(number / 7 + 1) % phrases.count]
        let third = phrases[(number / 3 + 2) % phrases.count]
        let material = materials[number % 2 == 0 ? 0 : 2]
        return SyntheticDetails(
            description: "\(first) \(second) \(third)",
            materials: [material.0, materials[number % 3 == 2 ? 3 : 1].0],
            dimensions: "height \(30 + number % 90).5 cm x width \(25 + number % 70) cm",
            subjects: [subjects[number % 6].0, subjects[(number + 1 + number / 4 % 5) % 6].0],
            place: places[number % places.count],
            rights: rights[number % rights.count])
    }

    /// Record `number`'s details in revision `generation`: the description and dimensions change every time, and
    /// every fourth record's rights move between public domain and CC BY.
    static func revised(_ details: SyntheticDetails, number: Int, generation: Int) -> SyntheticDetails {
        var details = details
        details.description += " Revised in generation \(generation)."
        details.dimensions = "height \(30 + number % 90).5 cm x width \(25 + (number + generation) % 70) cm"
        if number % 4 == 1 {
            details.rights =
                generation % 2 == 1
                ? "https://creativecommons.org/licenses/by/4.0/" : "http://creativecommons.org/publicdomain/mark/1.0/"
        }
        return details
    }

    /// The maker's life dates and occupation as an `edm:Agent` states them.
    static func agentFacts(_ maker: String) -> String {
        let index = makers.firstIndex(of: maker) ?? 0
        let born = 1580 + index * 23
        return "<rdaGr2:dateOfBirth>\(born)</rdaGr2:dateOfBirth><rdaGr2:dateOfDeath>\(born + 57)</rdaGr2:dateOfDeath>"
            + "<rdaGr2:professionOrOccupation rdf:resource=\"https://id.rijksmuseum.nl/2501\"/>"
    }

    /// The EDM fields of a ProvidedCHO, and the concepts and places they point at: beside the CHO in the flat
    /// shape (`nodes`), inside each field in the nested one.
    static func edm(_ details: SyntheticDetails?, nested: Bool) -> (fields: String, nodes: String) {
        guard let details else { return ("", "") }
        var fields = "<dc:description xml:lang=\"en\">\(MockHTTP.escapeXML(details.description))</dc:description>"
        fields += "<dcterms:extent xml:lang=\"en\">\(details.dimensions)</dcterms:extent>"
        // The provenance and the collection it is part of, as the Rijksmuseum gives them (the latter not described).
        fields +=
            "<dcterms:provenance xml:lang=\"en\">Bought from the \(details.place) guild, 1808</dcterms:provenance>"
        fields += "<dcterms:isPartOf rdf:resource=\"https://id.rijksmuseum.nl/26021\(details.subjects.count)\"/>"
        var nodes = ""
        func concept(_ element: String, _ uri: String, _ english: String, _ dutch: String?, place: Bool = false) {
            let kind = place ? "edm:Place" : "skos:Concept"
            var node = "<\(kind) rdf:about=\"\(uri)\"><skos:prefLabel xml:lang=\"en\">\(english)</skos:prefLabel>"
            if let dutch { node += "<skos:prefLabel xml:lang=\"nl\">\(dutch)</skos:prefLabel>" }
            let digit = uri.suffix(1)
            node +=
                place
                ? "<wgs84_pos:lat>52.\(digit)</wgs84_pos:lat><wgs84_pos:long>4.\(digit)</wgs84_pos:long></\(kind)>"
                : "<skos:altLabel>45D1\(digit)</skos:altLabel></\(kind)>"
            if nested {
                fields += "<\(element)>\(node)</\(element)>"
            } else {
                fields += "<\(element) rdf:resource=\"\(uri)\"/>"
                nodes += node
            }
        }
        for material in details.materials {
            let index = materials.firstIndex { $0.0 == material } ?? 0
            concept("dcterms:medium", "https://id.rijksmuseum.nl/230\(index)", materials[index].0, materials[index].1)
        }
        for subject in details.subjects {
            let index = subjects.firstIndex { $0.0 == subject } ?? 0
            concept("dc:subject", "https://id.rijksmuseum.nl/240\(index)", subjects[index].0, subjects[index].1)
        }
        let place = places.firstIndex(of: details.place) ?? 0
        concept("dcterms:spatial", "https://id.rijksmuseum.nl/270\(place)", details.place, nil, place: true)
        nodes +=
            "<skos:Concept rdf:about=\"https://id.rijksmuseum.nl/2501\"><skos:prefLabel xml:lang=\"en\">painter"
            + "</skos:prefLabel><skos:prefLabel xml:lang=\"nl\">schilder</skos:prefLabel></skos:Concept>"
        return (fields, nodes)
    }

    /// The Dublin Core fields of a record: text only.
    static func dublinCore(_ details: SyntheticDetails?) -> String {
        guard let details else { return "" }
        var fields = "<dc:description>\(MockHTTP.escapeXML(details.description))</dc:description>"
        fields +=
            details.materials.map { "<dc:format>\($0)</dc:format>" }.joined() + "<dc:format>image/jpeg</dc:format>"
        fields += details.subjects.map { "<dc:subject>\($0)</dc:subject>" }.joined()
        return fields + "<dc:coverage>\(details.place)</dc:coverage>"
    }

    /// A record in `oai_dc`, with the role prefix (`schilder: `) some repositories put before a creator.
    static func dublinCoreRecord(_ object: SyntheticObject, uri: String) -> String {
        let number = object.number
        var dc = """
            <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>\(OAICollection.objectNumber(number))</dc:identifier>\
            <dc:identifier>\(uri)</dc:identifier><dc:title>\(MockHTTP.escapeXML(object.title))</dc:title>
            """
        if let maker = object.maker {
            let role = number % 2 == 0 ? "schilder: " : ""
            dc += "<dc:creator>\(role)\(MockHTTP.escapeXML(maker))</dc:creator>"
        }
        dc += "<dc:date>\(object.date)</dc:date><dc:type>schilderij</dc:type>" + dublinCore(object.details)
        if object.hasImage {
            dc +=
                "<dc:relation>https://iiif.micr.io/\(OAICollection.iiifID(number))/full/max/0/default.jpg</dc:relation>"
        }
        let rights = object.details?.rights ?? "http://creativecommons.org/publicdomain/mark/1.0/"
        return dc + "<dc:rights>\(rights)</dc:rights></oai_dc:dc>"
    }
}
