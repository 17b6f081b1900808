import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// A night keeps a detail page or an artist page when its inputs did not change: every value its model gives for
/// a name its template asks for (`PageInputs`, `Fingerprint.combine(model:keys:)`), made through the same
/// `value(for:)` the renderer reads. Checked here over seeded random models against a template asking for every
/// name: two models it renders differently have different inputs, a card's key included. A field added to an
/// object but not varied here fails the first test. `VITRINE_SEEDS=N` runs more seeds.
@Suite struct PageInputsPropertyTests {
    static let seeds: [UInt64] = {
        let count = ProcessInfo.processInfo.environment["VITRINE_SEEDS"].flatMap(Int.init) ?? 50
        return (1...UInt64(max(1, count))).map { $0 }
    }()

    /// Every name, in the page and in each list or neighbour it holds.
    static func everyName() throws -> CompiledTemplate {
        let names = TemplateKey.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: "|")
        let nested = ["previous", "next", "cards", "pages", "facts", "paragraphs"].map {
            "{{#\($0)}}[\(names)]{{/\($0)}}"
        }.joined()
        var compiler = MustacheCompiler(sources: ["page": names + nested], origins: [:])
        return try compiler.compile("page")
    }

    /// Every name at the top, and sections whose bodies ask for a few names each, some of them the enclosing
    /// page's: what a night asks of each element is narrowed to those.
    static func narrowSections() throws -> CompiledTemplate {
        let names = TemplateKey.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: "|")
        let sections =
            "{{#facts}}<{{label}}:{{title}}>{{/facts}}{{#paragraphs}}<{{text}}{{id}}>{{/paragraphs}}"
            + "{{#previous}}<{{title}}{{pageName}}{{siteTitle}}>{{/previous}}{{#next}}<{{pageName}}>{{/next}}"
            + "{{#cards}}<{{title}}{{hasDate}}{{date}}>{{/cards}}"
        var compiler = MustacheCompiler(sources: ["page": names + sections], origins: [:])
        return try compiler.compile("page")
    }

    static func rendered(_ template: CompiledTemplate, _ context: some TemplateContext) -> [UInt8] {
        var output = RenderedBytes()
        template.render(context, into: &output)
        return output.bytes
    }

    /// What a night compares: the page's inputs as `TemplateLibrary.inputs` makes them for this template.
    static func inputs(_ context: some TemplateContext, _ template: CompiledTemplate) -> Fingerprint {
        PageInputs(seed: Fingerprint(), template: template)(context)
    }

    @Test func `every stored field of an object is one this test varies`() {
        var random = SplitMix64(seed: 7)
        let object = Self.object(&random)
        let fields = Set(Mirror(reflecting: object).children.compactMap(\.label))
        #expect(fields == Set(Self.objectFields))
        let details = Set(Mirror(reflecting: object.details).children.compactMap(\.label))
        #expect(details == Set(Self.detailFields))
    }

    @Test func `detail pages that show anything differently have different inputs`() throws {
        for template in [try Self.everyName(), try Self.narrowSections()] {
            try Self.checkObjectPages(template)
        }
    }

    static func checkObjectPages(_ template: CompiledTemplate) throws {
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            let page = Self.objectPage(&random)
            for _ in 0..<40 {
                var other = page
                Self.change(&other, &random)
                let differ = Self.rendered(template, page) != Self.rendered(template, other)
                #expect(
                    !differ || Self.inputs(page, template) != Self.inputs(other, template),
                    "seed \(seed): \(page) and \(other)")
            }
        }
    }

    @Test func `artist pages that show anything differently have different inputs`() throws {
        for template in [try Self.everyName(), try Self.narrowSections()] {
            try Self.checkArtistPages(template)
        }
    }

    static func checkArtistPages(_ template: CompiledTemplate) throws {
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            let page = Self.artistPage(&random)
            for _ in 0..<40 {
                var other = page
                Self.change(&other, &random)
                let differ = Self.rendered(template, page) != Self.rendered(template, other)
                #expect(!differ || Self.inputs(page, template) != Self.inputs(other, template), "seed \(seed)")
            }
        }
    }

    // MARK: Models

    /// Few values for each field, so that changes often land on a value another field or model has.
    static let texts = ["", "a", "Rembrandt", "Night Watch", "1642", "b<c>&\"'", "x/y?z=1", "Ørsted"]

    static func text(_ random: inout SplitMix64) -> String {
        texts[Int(random.next() % UInt64(texts.count))]
    }

    static func number(_ random: inout SplitMix64) -> Int {
        [0, 1, 200, 4000, -1][Int(random.next() % 5)]
    }

    /// A picture's URL: empty (none) a third of the time.
    static func url(_ random: inout SplitMix64) -> String {
        random.next() % 3 == 0 ? "" : "https://images.example/\(text(&random))"
    }

    static func object(_ random: inout SplitMix64) -> CatalogViewModel.DisplayedObject {
        var object = CatalogViewModel.DisplayedObject(
            id: text(&random), title: text(&random), maker: text(&random), date: text(&random),
            thumbnail: ThumbnailSelector.Thumbnail(url: url(&random), width: number(&random), height: number(&random)),
            thumbnail2xURL: url(&random),
            large: ThumbnailSelector.Thumbnail(url: url(&random), width: number(&random), height: number(&random)),
            imageURL: url(&random), objectURL: text(&random))
        object.details = details(&random)
        object.pageName = text(&random) + ".html"
        return object
    }

    static func texts(_ random: inout SplitMix64) -> [String] {
        (0..<Int(random.next() % 3)).map { _ in text(&random) }
    }

    static func year(_ random: inout SplitMix64) -> Int? {
        random.next() % 3 == 0 ? nil : number(&random)
    }

    static func maker(_ random: inout SplitMix64) -> DisplayedDetails.DisplayedMaker {
        .init(name: text(&random), role: text(&random), lifeDates: text(&random), sortName: text(&random))
    }

    static func details(_ random: inout SplitMix64) -> DisplayedDetails {
        var details = DisplayedDetails()
        for _ in 0..<Int(random.next() % 8) { changeDetails(&details, &random) }
        return details
    }

    /// The stored fields of an object's details that `changeDetails` changes.
    static let detailFields = [
        "recordID", "datestamp", "yearBegin", "yearEnd", "objectType", "materials", "dimensions", "description",
        "creditLine", "place", "subjects", "makers", "rightsURL", "rightsLabel", "isOpenAccess", "attribution",
        "attributionParts", "altText", "otherFacts",
    ]

    static func changeDetails(_ details: inout DisplayedDetails, _ random: inout SplitMix64) {
        switch detailFields[Int(random.next() % UInt64(detailFields.count))] {
        case "recordID": details.recordID = text(&random)
        case "datestamp": details.datestamp = text(&random)
        case "yearBegin": details.yearBegin = year(&random)
        case "yearEnd": details.yearEnd = year(&random)
        case "objectType": details.objectType = text(&random)
        case "materials": details.materials = texts(&random)
        case "dimensions": details.dimensions = [text(&random), text(&random)].joined(separator: "\n")
        case "description": details.description = [text(&random), text(&random)].joined(separator: "\n\n")
        case "creditLine": details.creditLine = text(&random)
        case "place": details.place = text(&random)
        case "subjects": details.subjects = texts(&random)
        case "makers": details.makers = (0..<Int(random.next() % 3)).map { _ in maker(&random) }
        case "rightsURL": details.rightsURL = url(&random)
        case "rightsLabel": details.rightsLabel = text(&random)
        case "isOpenAccess": details.isOpenAccess = [nil, true, false][Int(random.next() % 3)]
        case "attribution": details.attribution = text(&random)
        case "attributionParts":
            details.attributionParts = (0..<Int(random.next() % 3)).map { _ in
                .init(text: text(&random), url: random.next() % 2 == 0 ? "" : url(&random))
            }
        case "otherFacts":
            details.otherFacts = (0..<Int(random.next() % 3)).map { _ in
                .init(label: text(&random), value: text(&random))
            }
        default: details.altText = text(&random)
        }
    }

    /// The stored fields of an object that `changeObject` changes.
    static let objectFields = [
        "id", "title", "maker", "date", "hasDate", "objectURL", "hasObjectURL", "thumbnailURL", "thumbnailWidth",
        "thumbnailHeight", "thumbnail2xURL", "largeImageURL", "largeWidth", "largeHeight", "imageURL", "pageName",
        "details",
    ]

    static func changeObject(_ object: inout CatalogViewModel.DisplayedObject, _ random: inout SplitMix64) {
        switch objectFields[Int(random.next() % UInt64(objectFields.count))] {
        case "id": object.id = text(&random)
        case "title": object.title = text(&random)
        case "maker": object.maker = text(&random)
        // A flag goes with its text, as the object's initializer sets it.
        case "date", "hasDate":
            object.date = text(&random)
            object.hasDate = !object.date.isEmpty
        case "objectURL", "hasObjectURL":
            object.objectURL = text(&random)
            object.hasObjectURL = !object.objectURL.isEmpty
        case "thumbnailURL": object.thumbnailURL = url(&random)
        case "thumbnailWidth": object.thumbnailWidth = number(&random)
        case "thumbnailHeight": object.thumbnailHeight = number(&random)
        case "thumbnail2xURL": object.thumbnail2xURL = url(&random)
        case "largeImageURL": object.largeImageURL = url(&random)
        case "largeWidth": object.largeWidth = number(&random)
        case "largeHeight": object.largeHeight = number(&random)
        case "details": changeDetails(&object.details, &random)
        case "pageName": object.pageName = text(&random) + ".html"
        default: object.imageURL = url(&random)
        }
    }

    static func neighbour(_ random: inout SplitMix64) -> Neighbour? {
        random.next() % 3 == 0 ? nil : Neighbour(title: text(&random), pageName: text(&random) + ".html")
    }

    /// A site with a random title, and an address and a logo or not.
    static func site(_ random: inout SplitMix64) -> SiteHead {
        SiteHead(
            title: text(&random), url: random.next() % 2 == 0 ? "" : "https://\(text(&random)).example/",
            logo: random.next() % 2 == 0 ? "" : "assets/logo.\(["png", "svg"][Int(random.next() % 2)])")
    }

    /// The same site with one of its values changed.
    static func change(_ site: SiteHead, _ random: inout SplitMix64) -> SiteHead {
        let other = Self.site(&random)
        switch random.next() % 3 {
        case 0: return SiteHead(title: other.title + "!", url: site.url, logo: site.logo)
        case 1: return SiteHead(title: site.title, url: site.url.isEmpty ? "https://a.example/" : "", logo: site.logo)
        default: return SiteHead(title: site.title, url: site.url, logo: site.logo.isEmpty ? "assets/logo.gif" : "")
        }
    }

    static func objectPage(_ random: inout SplitMix64) -> ObjectPage {
        ObjectPage(
            site: site(&random), institution: text(&random), makerName: text(&random), object: object(&random),
            pageName: text(&random) + ".html", sectionPageName: text(&random), previous: neighbour(&random),
            next: neighbour(&random))
    }

    static func change(_ page: inout ObjectPage, _ random: inout SplitMix64) {
        var (site, institution, makerName, object, pageName, sectionPageName, previous, next) = (
            page.site, page.institution, page.makerName, page.object, page.pageName, page.sectionPageName,
            page.previous, page.next
        )
        switch random.next() % 9 {
        case 0: site = change(site, &random)
        case 1: institution = text(&random)
        case 2: makerName = text(&random)
        case 3: sectionPageName = text(&random)
        case 4: previous = neighbour(&random)
        case 5: next = neighbour(&random)
        case 6: pageName = text(&random) + "-2.html"
        default:
            changeObject(&object, &random)
            pageName = object.pageName
        }
        page = ObjectPage(
            site: site, institution: institution, makerName: makerName, object: object, pageName: pageName,
            sectionPageName: sectionPageName, previous: previous, next: next)
    }

    static func artistPage(_ random: inout SplitMix64) -> ArtistPage {
        let count = 1 + Int(random.next() % 5)
        let objects = (0..<count).map { _ in object(&random) }
        let perPage = 1 + Int(random.next() % 3)
        return artistPage(
            site: site(&random), objects: objects, perPage: perPage,
            pageIndex: Int(random.next() % UInt64((count + perPage - 1) / perPage)),
            letterHref: text(&random), name: text(&random))
    }

    static func artistPage(
        site: SiteHead, objects: [CatalogViewModel.DisplayedObject], perPage: Int, pageIndex: Int,
        letterHref: String, name: String
    ) -> ArtistPage {
        let section = CatalogViewModel.DisplayedSection(
            name: name, slug: "s", countLabel: "\(objects.count) objects", isUnknownMaker: name.isEmpty,
            objects: objects)
        let pages = stride(from: 0, to: objects.count, by: perPage).enumerated().map { number, start in
            ArtistPageNames.SectionPage(
                number: number + 1, fileName: "s--\(number + 1).html",
                range: start..<min(start + perPage, objects.count))
        }
        return ArtistPage(
            site: site, section: section, pages: pages, pageIndex: pageIndex, letterHref: letterHref,
            cardSeed: Fingerprint(), templateKeys: TemplateKey.allCases)
    }

    static func change(_ page: inout ArtistPage, _ random: inout SplitMix64) {
        var objects = page.section.objects
        var (site, letterHref, name) = (page.head.site, page.letterHref, page.section.name)
        switch random.next() % 5 {
        case 0: site = change(site, &random)
        case 1: objects[Int(random.next() % UInt64(objects.count))].pageName = text(&random) + ".html"
        case 2: letterHref = text(&random)
        case 3: name = text(&random)
        default: changeObject(&objects[Int(random.next() % UInt64(objects.count))], &random)
        }
        let perPage = page.pages[0].range.count
        page = artistPage(
            site: site, objects: objects, perPage: perPage, pageIndex: page.pageIndex,
            letterHref: letterHref, name: name)
    }
}

extension ObjectPage {
    /// A page of one object, alone in its section.
    init(
        site: SiteHead, institution: String, makerName: String, object: CatalogViewModel.DisplayedObject,
        pageName: String, sectionPageName: String, previous: Neighbour?, next: Neighbour?
    ) {
        var object = object
        object.pageName = pageName
        self.init(
            site: site, institution: institution, makerName: makerName, objects: [object], position: 0,
            sectionPageName: sectionPageName, previous: previous, next: next)
    }
}
