import VitrineCore
import VitrineTemplates

// What a user's template folder gets wrong quietly in any Mustache: a file under a name no page renders, a name no
// page has. Each is one plain `warning:` line, with the name most likely meant.
extension TemplateLibrary {
    static func warnings(
        userFiles: [String], directory: String, includedPartials: Set<String>, unknownNames: [String: [String]]
    ) -> [String] {
        let bundled = BundledTemplates.files.keys.sorted()
        var warnings: [String] = []
        for file in userFiles where !BundledTemplates.files.keys.contains(file) {
            let name = file.hasSuffix(".mustache") ? String(file.dropLast(".mustache".count)) : file
            guard !includedPartials.contains(name) else { continue }
            warnings.append(
                "warning: --templates \(directory): \(file) replaces no template and no template includes it"
                    + suggestion(for: file, among: bundled))
        }
        let keys = TemplateKey.allCases.map(\.rawValue)
        for (template, names) in unknownNames.sorted(by: { $0.key < $1.key }) {
            for name in names {
                warnings.append(
                    "warning: \(template).mustache uses {{\(name)}}, which no page has: it renders blank"
                        + suggestion(for: name, among: keys))
            }
        }
        return warnings
    }

    /// `; did you mean …?` with the candidate of the same file stem (`index` of `html/index.html.mustache`), else
    /// the closest of `candidates` when one is close enough to be a typo.
    static func suggestion(for name: String, among candidates: [String]) -> String {
        func stem(_ path: String) -> Substring {
            path.split(separator: "/").last?.split(separator: ".").first ?? Substring(path)
        }
        if let same = candidates.first(where: { stem($0) == stem(name) }) { return "; did you mean \(same)?" }
        return Suggestion.closest(to: name, among: candidates).map { "; did you mean \($0)?" } ?? ""
    }
}
