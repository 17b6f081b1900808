/// The Interactor's side of the export scene: harvest a collection and pass the sections on.
package protocol ExportBusinessLogic: Sendable {
    /// Harvests every page, groups the objects into artist sections and hands them to the Presenter.
    func export(request: ExportRequest) async throws
}
