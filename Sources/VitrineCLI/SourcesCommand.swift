import ArgumentParser
import VitrineCore
import VitrineScene
import VitrineSources

/// `vitrine sources`: what each source is, where it points, how it pages, and what it needs.
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the collections Vitrine can harvest."
    )

    func run() {
        for descriptor in SourceRegistry.standard.descriptors {
            print(descriptor.name)
            print("  \(descriptor.summary)")
            print("  base URL: \(descriptor.defaultBaseURL)")
            print("  paging:   \(descriptor.paging)")
            print("  key:      \(descriptor.keyVariable.map { "--key or \($0)" } ?? "none needed")")
            print("  filters:  \(descriptor.filters.isEmpty ? "none" : descriptor.filters.joined(separator: ", "))")
            let rate = descriptor.requestsPerSecond.map { perSecond in
                let number = perSecond == perSecond.rounded() ? String(Int(perSecond)) : String(perSecond)
                return "at most \(number) \(perSecond == 1 ? "request" : "requests") a second (--rate overrides)"
            }
            print("  rate:     \(rate ?? "no ceiling (--rate sets one)")")
        }
    }
}
