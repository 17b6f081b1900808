import VitrineCore
import VitrineOAIPMH
import VitrineSources

/// Every source `--source` can name, in `vitrine sources` order. Adding a source is a folder in
/// `VitrineSources` (its adapter, payload types, `SourceID` and `registration`) and one line in `standard`.
package struct SourceRegistry: Sendable {
    package var registrations: [SourceRegistration]

    package init(_ registrations: [SourceRegistration]) {
        self.registrations = registrations
    }

    /// The sources Vitrine ships with.
    package static let standard = SourceRegistry([
        DemoCollection.registration,
        RijksmuseumOAISource.registration,
        RijksmuseumLegacySource.registration,
        ArtInstituteSource.registration,
        MetSource.registration,
        UnsplashSource.registration,
        OAIPMHSource.registration,
    ])

    /// Every source's description, in order.
    package var descriptors: [SourceDescriptor] { registrations.map(\.descriptor) }

    /// The names `--source` takes.
    package var names: [String] { registrations.map(\.descriptor.name) }

    /// The source a configuration names, and the transport to reach it.
    package func make(_ configuration: SourceConfiguration, environment: SourceEnvironment) throws(ExportError)
        -> (source: any CollectionSource, transport: any Transport)
    {
        let name = configuration.source.rawValue
        guard let registration = registrations.first(where: { $0.descriptor.name == name }) else {
            throw ExportError(
                .configuration("no source is called '\(name)'; choose \(names.joined(separator: ", "))"))
        }
        return try registration.make(configuration, environment)
    }
}
