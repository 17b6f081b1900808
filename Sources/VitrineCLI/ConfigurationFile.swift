import ArgumentParser
import Foundation
import VitrineCore
import VitrineOutput
import VitrineScene
import Yams

/// `vitrine.yaml` (or `vitrine.json`) for a nightly job: every `vitrine export` flag by its name (`site-title:`,
/// `format: [html, csv]`, `full: true`), found in the working folder or given with `--config FILE`. The file's
/// settings come before the command line's arguments, so a flag given on the command line wins. An API key is
/// refused in the file: a file is shared and backed up; the key belongs in the environment.
enum ConfigurationFile {
    /// The names the working folder is searched for, in this order.
    static let defaultNames = ["vitrine.yaml", "vitrine.yml", "vitrine.json"]

    /// `arguments` (after the program's name) with an export's configuration file read in before them. Anything
    /// but `export` is returned as it is.
    static func arguments(_ arguments: [String], in folder: String) throws(ValidationError) -> [String] {
        guard arguments.first == "export" else { return arguments }
        guard let path = try path(arguments, in: folder) else { return arguments }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError(
                "cannot read the configuration file \(path): \(OutputFolder.reason(error, path: path))")
        }
        return ["export"] + (try settings(text, from: path)) + arguments.dropFirst()
    }

    /// Where an export's `--summary-json` goes, from the command line or, as far as it can be read, the
    /// configuration file: for a run refused before its arguments are all understood.
    static func summaryPath(_ arguments: [String], in folder: String) -> String? {
        setting("summary-json", arguments, in: folder)
    }

    /// The value of `--name` on the command line, else of `name` in the configuration file as far as it can be
    /// read; `nil` when neither gives it.
    static func setting(_ name: String, _ arguments: [String], in folder: String) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" + name, index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--\(name)=") { return String(argument.dropFirst(name.count + 3)) }
        }
        guard let file = try? path(arguments, in: folder),
            let text = try? String(contentsOfFile: file, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            guard let match = line.wholeMatch(of: /\s*"?([a-z-]+)"?\s*:\s*"?([^"\n,}]+?)"?\s*,?\s*/),
                match.output.1 == name
            else { continue }
            return String(match.output.2)
        }
        return nil
    }

    /// The file `--config` names, else the first of `defaultNames` in `folder`; `nil` when there is none.
    static func path(_ arguments: [String], in folder: String) throws(ValidationError) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--config" {
                guard index + 1 < arguments.count else { throw ValidationError("--config must name a file.") }
                return arguments[index + 1]
            }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        let found = defaultNames.map { folder + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        if found.count > 1 {
            throw ValidationError(
                "\(found.map { ($0 as NSString).lastPathComponent }.joined(separator: " and ")) are both here: keep "
                    + "one, or name it with --config.")
        }
        return found.first
    }

    /// The file's settings as command-line arguments (`site-title: Het Huis` → `--site-title=Het Huis`). Each value
    /// is the text as written (`No`, `0123`, `1.10` stay what they say; YAML would make them false, 83 and 1.1); a
    /// switch (`full`, `quiet`) takes true or false.
    static func settings(_ text: String, from path: String) throws(ValidationError) -> [String] {
        let file = (path as NSString).lastPathComponent
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ValidationError("\(file) is not valid YAML or JSON: \(oneLine(error))")
        }
        guard let root, root.null == nil else { return [] }
        guard let settings = root.mapping else {
            throw ValidationError("\(file) must hold settings by name (site-title: …), one on each line.")
        }
        let (names, switches) = (flagNames, switchNames)
        var arguments: [String] = []
        for (key, value) in settings.sorted(by: { ($0.key.string ?? "") < ($1.key.string ?? "") }) {
            let name = key.scalar?.string ?? ""
            if name == "key" {
                throw ValidationError(
                    "\(file): an API key does not belong in a file that is shared and backed up; set it in the "
                        + "environment instead, as \(keyVariables) (or pass --key).")
            }
            if name == "config" { throw ValidationError("\(file): a configuration file cannot name another.") }
            guard names.contains(name) else {
                let hint = Suggestion.closest(to: name, among: names).map { "; did you mean \($0)?" } ?? ""
                throw ValidationError("\(file): no export setting is called '\(name)'\(hint)")
            }
            if value.null != nil { continue }
            if let list = value.sequence {
                let items = list.compactMap { $0.scalar?.string }
                guard items.count == list.count else {
                    throw ValidationError("\(file): \(name) must be a list of values, not of groups.")
                }
                arguments.append("--\(name)=" + items.joined(separator: ","))
                continue
            }
            guard let scalar = value.scalar else {
                throw ValidationError("\(file): \(name) must be a single value, not a group of settings.")
            }
            if switches.contains(name) {
                // YAML 1.2's true and false only: not 1.1's yes, no, on and off, and not quoted text.
                let word = scalar.string.lowercased()
                guard scalar.style == .plain, word == "true" || word == "false" else {
                    let quoted = word == "true" || word == "false"
                    throw ValidationError(
                        "\(file): \(name) is a switch: true or false"
                            + (quoted ? ", without quotes." : ", not '\(scalar.string)'."))
                }
                let on = word == "true"
                if on { arguments.append("--\(name)") }
            } else {
                arguments.append("--\(name)=\(scalar.string)")
            }
        }
        return arguments
    }

    /// The export flags that take no value (`--full`, `--quiet`): every flag the help never shows with one.
    static var switchNames: Set<String> {
        let help = ExportCommand.helpMessage(columns: 10_000)
        let valued = Set(help.matches(of: /--([a-z0-9][a-z0-9-]*) </).map { String($0.output.1) })
        return flagNames.subtracting(valued)
    }

    /// Every long flag of `vitrine export`, as its help lists them.
    static var flagNames: Set<String> {
        let help = ExportCommand.helpMessage(columns: 10_000)
        return Set(help.matches(of: /--([a-z0-9][a-z0-9-]*)/).map { String($0.output.1) })
            .subtracting(["help", "version", "config", "key"])
    }

    private static var keyVariables: String {
        SourceRegistry.standard.descriptors.compactMap(\.keyVariable).sorted().joined(separator: " or ")
    }

    private static func oneLine(_ error: any Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

}
