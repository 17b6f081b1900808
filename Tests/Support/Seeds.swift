import Foundation
import VitrineCore

/// Fixed objects and responses the tests share.
package enum Seeds {
    package static let descriptor = SourceDescriptor(
        name: "test", institution: "Test Museum", defaultBaseURL: "http://127.0.0.1", paging: "pages",
        keyVariable: nil, filters: [], summary: "Seeds."
    )

    package static func object(_ id: String, _ maker: String?, title: String? = nil, image: ImageReference? = nil)
        -> ArtObject
    {
        ArtObject(
            id: id, title: title ?? "Object \(id)", maker: maker, date: "1650", image: image,
            objectURL: "https://museum.example/objects/\(id)")
    }

    package static func google(_ name: String, width: Int? = 4000, height: Int? = 3000, suffix: String = "=s0")
        -> ImageReference
    {
        ImageReference(
            url: "https://lh3.googleusercontent.com/\(name)\(suffix)", width: width, height: height,
            sizing: .googleImageHost)
    }

    /// Objects whose text tries to break every format.
    package static let hostile: [ArtObject] = [
        ArtObject(
            id: "X-1", title: "<script>alert('x')</script>", maker: "Jan <b>Steen</b>", date: "1660",
            image: google("x1"), objectURL: "javascript:alert(1)"),
        ArtObject(
            id: "X-2", title: "<img src=x onerror=alert(1)>", maker: "Jan <b>Steen</b>", date: nil,
            image: ImageReference(url: "javascript:alert(2)", sizing: .fixed(smallURL: nil, smallWidth: nil)),
            objectURL: "https://museum.example/x2?a=1&b=\"2\""),
        ArtObject(
            id: "X-3", title: "*bold* _it_ [link](http://evil.example) `code` # | ~ \\ !", maker: "Frans Hals",
            date: "c. 1650", image: nil, objectURL: "data:text/html,hi"),
        ArtObject(
            id: "X-4", title: "=HYPERLINK(\"http://evil.example\",\"click\")", maker: "Frans Hals",
            date: "-1500", image: nil, objectURL: nil),
        ArtObject(
            id: "X-5", title: "Quote \"here\", comma, and\nnew line", maker: "@mention", date: "+1",
            image: nil, objectURL: nil),
    ]

    package static func response(_ sections: [ArtistSection]) -> HarvestedCollection {
        var statistics = ExportStatistics()
        statistics.objects = sections.reduce(0) { $0 + $1.objects.count }
        statistics.sections = sections.count
        return HarvestedCollection(source: descriptor, sections: sections, statistics: statistics)
    }

    /// An object with every detail a rich record has, as the Rijksmuseum's EDM record of SK-C-5 gives them.
    package static var nightWatch: ArtObject {
        var object = object("SK-C-5", "Rembrandt van Rijn", title: "The Night Watch", image: google("nightwatch"))
        object.recordID = "https://id.rijksmuseum.nl/200107928"
        object.datestamp = "2026-06-09T10:19:51Z"
        object.details = ObjectDetails(
            description: "Rembrandt’s largest, most famous canvas was made for the Arquebusiers guild hall.\n\n"
                + "It shows the company <of> captain Frans Banninck Cocq & lieutenant Willem van Ruytenburch.",
            objectType: "painting", materials: ["canvas", "oil paint"],
            dimensions: "height 379.5 cm x width 453.5 cm\nweight 337 kg",
            creditLine: "On loan from the City of Amsterdam",
            place: "Amsterdam", subjects: ["militia", "Frans Banninck Cocq"], yearBegin: 1642, yearEnd: 1642,
            makers: [
                .init(
                    name: "Rembrandt van Rijn", role: "painter", lifeDates: "1606–1669", sortName: "Rijn, Rembrandt van"
                )
            ],
            rights: Rights(statement: "http://creativecommons.org/publicdomain/mark/1.0/"),
            altText: "A militia company steps out of a dark archway, led by its captain in black.",
            otherFacts: [
                .init(label: "Provenance", value: "Kloveniersdoelen, Amsterdam; Town Hall <1715>"),
                .init(label: "Coordinates", value: "52.37, 4.89"),
                .init(label: "Part of", value: "https://id.rijksmuseum.nl/260214"),
            ])
        return object
    }

    /// A small catalog: diacritics, non-Latin makers, no maker, images with and without sizes.
    package static let catalogResponse = response([
        ArtistSection(
            maker: "Rembrandt van Rijn",
            objects: [
                nightWatch
            ]),
        ArtistSection(maker: nil, objects: [object("BK-1", nil, title: "Cabinet")]),
        ArtistSection(
            maker: "Émile Bernard",
            objects: [
                object(
                    "SK-A-1", "Émile Bernard", title: "Bretonnes", image: google("bretonnes", width: 300, height: 200))
            ]),
        ArtistSection(maker: "葛飾北斎", objects: [object("AK-1", "葛飾北斎", title: "Fine Wind, Clear Morning")]),
        ArtistSection(
            maker: "Aelbert Cuyp",
            objects: [
                object("SK-A-2", "Aelbert Cuyp", title: "River Landscape", image: google("cuyp", suffix: ""))
            ]),
    ])
}

/// A random number generator from a seed (SplitMix64): the same seed, the same models, shuffles and histories.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
