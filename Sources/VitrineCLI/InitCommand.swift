import ArgumentParser
import Foundation
import VitrineOutput

/// `vitrine init`: writes a commented `vitrine.yaml` to start a nightly job from.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented vitrine.yaml: the settings 'vitrine export' reads in this folder.")

    @Option(help: ArgumentHelp("The file to write.", valueName: "file"))
    var output = "vitrine.yaml"

    @Flag(help: "Replace the file if it is there.")
    var force = false

    func validate() throws {
        let fileExtension = (output as NSString).pathExtension.lowercased()
        guard fileExtension == "yaml" || fileExtension == "yml" else {
            throw ValidationError("vitrine init writes YAML: name the file .yaml or .yml (such as vitrine.yaml).")
        }
    }

    func run() throws {
        // Anything of that name, a link (even to nothing) included: a link is replaced, never written through.
        var status = stat()
        if lstat(output, &status) == 0, !force {
            throw ValidationError("\(output) is already there; edit it, or pass --force to replace it.")
        }
        do {
            try Data((Self.example + "\n").utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ValidationError("cannot write \(output): \(OutputFolder.reason(error, path: output))")
        }
        let here = URL(fileURLWithPath: output).deletingLastPathComponent().standardizedFileURL.path
        let isHere = here == URL(fileURLWithPath: ".").standardizedFileURL.path
        let fileName = URL(fileURLWithPath: output).lastPathComponent
        let isDefault = isHere && (fileName == "vitrine.yaml" || fileName == "vitrine.yml")
        print(
            "wrote \(output): edit it, then run "
                + (isDefault ? "'vitrine export' in this folder" : "'vitrine export --config \(output)'"))
    }

    static let example = """
        # vitrine.yaml: what 'vitrine export' does when run in this folder (or with --config FILE).
        # Every setting is a flag of 'vitrine export' by the same name ('vitrine export --help' lists them all);
        # a flag given on the command line wins over the file. API keys never go here: set the source's
        # environment variable (UNSPLASH_ACCESS_KEY, RIJKSMUSEUM_API_KEY) in the job's environment instead.

        # What to harvest.
        source: rijksmuseum          # demo, rijksmuseum, aic, met, unsplash, oai (with base-url)
        # set: "260214"              # OAI-PMH: one set (the Rijksmuseum's Top 1000)
        # base-url: https://example.org/oai

        # The site: its name, one line about it, its public address and a logo.
        site-title: My Museum collection
        # site-description: Prints, drawings and paintings from our collection, updated every night.
        # site-url: https://museum.example/collection/
        # site-logo: logo.svg

        # What to write, and where.
        output: site
        format: [html, markdown, csv, jsonl]
        # open-access-only: true     # only the objects whose image is open for reuse

        # For a scheduler: a JSON summary of every run (exit status 75 means try again later).
        summary-json: vitrine-last-run.json
        quiet: true

        # Every night, from cron:
        #   15 3 * * *  cd /srv/vitrine && /usr/local/bin/vitrine export
        """
}
