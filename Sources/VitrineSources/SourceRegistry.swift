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
        case .rijksmuseum: RijksmuseumOAISource.descriptor
        case .rijksmuseumLegacy: RijksmuseumLegacySource.descriptor
        case .aic: ArtInstituteSource.descriptor
        case .met: MetSource.descriptor
        case .unsplash: UnsplashSource.descriptor
        case .oai: OAIPMHSource.genericDescriptor
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
        case .rijksmuseum:
            return (try RijksmuseumOAISource.source(configuration), http())
        case .rijksmuseumLegacy:
            return (try RijksmuseumLegacySource(configuration, environment: environment), http())
        case .aic:
            return (try ArtInstituteSource(configuration), http())
        case .met:
            return (try MetSource(configuration), http())
        case .unsplash:
            return (try UnsplashSource(configuration, environment: environment), http())
        case .oai:
            let source = try OAIPMHSource(
                configuration, descriptor: OAIPMHSource.genericDescriptor, defaultBaseURL: nil, defaultPrefix: "oai_dc")
            return (source, http())
        }
    }
}
