/// The Presenter's side of the export scene.
package protocol ExportPresentationLogic: Sendable {
    /// Turns harvested sections into a catalog view model, has the displays write it, then reports.
    func presentCatalog(response: consuming ExportResponse) throws
    /// Reports where a running harvest stands.
    func presentProgress(_ progress: HarvestProgress)
    /// Reports a pause before a retry, and why.
    func presentWait(_ wait: HarvestWait)
}
