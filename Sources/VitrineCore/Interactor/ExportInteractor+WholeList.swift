extension ExportInteractor {
    /// Checks what a whole list (not a night's changes, not `--max-pages`) read against what it should hold. One
    /// that counts objects but names none, or names none where the store holds the last export's objects, was cut
    /// short far more often than a collection emptied: an empty catalog would replace a good one and the store lose
    /// the collection, so the run fails and its stored pages go. One that read fewer than it counted is noted.
    func checkWholeList(
        _ statistics: inout ExportStatistics, plan: RunPlan, options: HarvestOptions
    ) throws(ExportError) {
        guard plan.window == nil, plan.source != nil, options.maxPages == nil else { return }
        let read = statistics.objects + statistics.skipped + statistics.deleted
        if let total = statistics.reportedTotal, read < total, read > 0 {
            statistics.notices.append(
                "the API reported \(total) objects but \(statistics.objects) distinct ones were read")
            statistics.readShortOfReported = true
            return
        }
        guard read == 0 else { return }
        let cutShort: String
        if let total = statistics.reportedTotal, total > 0 {
            cutShort =
                "the API counts \(NumberText.grouped(total)) objects but listed none: an answer cut short; nothing "
                + "was written"
        } else if let store, plan.state.harvests > 0, case let stored = try store.storedKeys(notIn: []).count,
            stored > 0
        {
            cutShort =
                "the API listed no objects, where the collection store (\(store.location)) holds "
                + "\(NumberText.grouped(stored)) from the last export: most likely an answer cut short; nothing was "
                + "written (if the collection is empty now, remove that store)"
        } else {
            return
        }
        if let harvest = plan.harvest { cache?.drop(harvest: harvest.id) }
        throw ExportError(.harvest(.unavailable(200, cutShort, retryAfter: nil)), source: source.descriptor.name)
    }
}
