import VitrineCore

/// Builds the source and transport a configuration names. One line per source.
package enum SourceRegistry {
    /// Every source's description, in `vitrine sources` order.
    package static var descriptors: [SourceDescriptor] {
        SourceID.allCases.map(descriptor(for:))
    }

    package static func descriptor(for id: SourceID) -> SourceDescriptor {
        switch id {
        case .demo: DemoCollection.descriptor
        case .rijksmuseumLegacy: RijksmuseumLegacySource.descriptor
        }
    }

    /// The source and the transport to reach it.
    /// - parameter environment: where keys are looked up when `--key` is not given.
    /// - parameter http: the transport for network sources.
    package static func make(
        _ configuration: SourceConfiguration,
        environment: [String: String],
        http: @autoclosure () -> any Transport
    ) throws(ExportError) -> (source: any CollectionSource, transport: any Transport) {
        switch configuration.source {
        case .demo:
            return (try DemoCollection.source(configuration), DemoCollection.transport())
        case .rijksmuseumLegacy:
            let source = try RijksmuseumLegacySource(configuration, environment: environment)
            return (source, http())
        }
    }
}
