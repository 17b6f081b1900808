/// The Presenter's side of the export scene. A kept harvest comes as `presentStart`, `presentPart` for each part
/// in catalog order, then `presentEnd`, or `presentAbandoned` after a failure on the way, one call at a time.
package protocol ExportPresentationLogic: Sendable {
    /// The catalog begins: its sections, counted, in catalog order.
    func presentStart(_ start: CatalogStart) async throws
    /// The next sections in catalog order, with their objects.
    func presentPart(_ sections: consuming [ArtistSection]) async throws
    /// Every part was presented: the displays finish, then the run is reported.
    func presentEnd(source: SourceDescriptor, statistics: ExportStatistics) async throws
    /// The catalog will not be finished: the displays drop what they began.
    func presentAbandoned() async
    /// Reports where a running harvest stands.
    func presentProgress(_ progress: HarvestProgress)
    /// Reports a pause before a retry, and why.
    func presentWait(_ wait: HarvestWait)
}
