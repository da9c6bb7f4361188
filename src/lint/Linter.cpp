#include "lint/Linter.h"

#include "base/SideTask.h"
#include "lint/KeyPattern.h"
#include "lint/LengthPatterns.h"
#include "lint/NamespaceRules.h"
#include "lint/OverlayRules.h"
#include "lint/SegmentShapes.h"
#include "lint/Spelling.h"

#include <QStringList>
#include <QVarLengthArray>

namespace keylens::lint {

namespace {

// The severity each rule's finding on this key was recorded with, by rule index: the key-level rules are pure, so
// running them again gives theirs (key-length escalates with the length); every other rule records the profile's.
std::vector<Severity> recordedSeverities(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile)
{
    const std::span<const RuleInfo> catalogue = allRules();
    std::vector<Severity> severities;
    severities.reserve(catalogue.size());
    for (const RuleInfo& rule : catalogue)
        severities.push_back(profile.severityOf(rule));
    for (const KeyFinding& finding : checkKey(key, info, profile))
        severities[ruleIndex(*finding.rule)] = profile.severityOf(*finding.rule, finding.severity);
    return severities;
}

} // namespace

Linter::Linter(Profile profile, std::size_t maxExamples)
    : m_profile(std::move(profile))
    , m_maxExamples(maxExamples)
    , m_missingTtl(findRule("missing-ttl"))
    , m_namingVariants(findRule("naming-variants"))
{
    for (const RuleInfo& rule : allRules()) {
        RuleSummary summary;
        summary.rule = &rule;
        m_byRule.push_back(std::move(summary));
    }
}

Linter::~Linter() = default;

void Linter::record(keyspace::Keyspace& store, keyspace::NodeId node, const RuleInfo& rule, Severity severity,
                    QByteArrayView detail, QByteArrayView key, const QByteArrayList& evidence)
{
    if (store.isLintIgnored(node))
        return;
    if (const std::optional<Severity> admitted = admit(store, node, rule, severity, detail, key, evidence))
        store.addFinding(node, unsigned(ruleIndex(rule)), unsigned(*admitted));
}

std::optional<Severity> Linter::admit(const keyspace::Keyspace& store, keyspace::NodeId node, const RuleInfo& rule,
                                      Severity severity, QByteArrayView detail, QByteArrayView key,
                                      const QByteArrayList& evidence)
{
    const std::size_t index = ruleIndex(rule);
    if (!m_profile.rules[index].enabled || (store.findingRules(node) >> index & 1))
        return std::nullopt;
    severity = m_profile.severityOf(rule, severity);
    if (m_evictsAllKeys && &rule == m_missingTtl)
        severity = Severity::Info; // such a key is evicted under memory pressure like any other
    if (&rule == m_namingVariants) {
        if (const std::optional<QByteArray> target = canonicalOfNamingVariant(detail)) {
            auto known = std::find(m_variantSpellings.begin(), m_variantSpellings.end(), *target);
            if (known == m_variantSpellings.end())
                known = m_variantSpellings.insert(known, *target);
            m_variantTarget.insertOrAssign(node, std::uint32_t(known - m_variantSpellings.begin()));
        }
    }
    RuleSummary& summary = m_byRule[index];
    ++m_changes;
    ++summary.findings;
    ++summary.bySeverity[std::size_t(severity)];
    if (m_maxExamples == 0 || summary.examples.size() < m_maxExamples)
        summary.examples.push_back(
            {&rule, severity, key.isNull() ? store.path(node) : key.toByteArray(), detail.toByteArray(), evidence});
    return severity;
}

void Linter::keyAdded(keyspace::Keyspace& store, keyspace::NodeId node, QByteArrayView key,
                      const keyspace::KeyInfo& info, const SegmentShapes* shapes)
{
    ++m_keys;
    ++m_changes;
    if (m_profile.isIgnored(key)) {
        store.setLintIgnored(node);
        return;
    }
    if (store.isLintIgnored(node))
        return;
    // The key's segments are its path's nodes, when the store splits keys as the profile does: their classes are read
    // from the table, root first. A quarter of the key checks' time was classifying them again.
    QVarLengthArray<SegmentClass, 12> known;
    if (shapes && store.delimiters() == m_profile.delimiters) {
        for (keyspace::NodeId at = node; at != keyspace::Keyspace::root(); at = store.parent(at))
            known.append(shapes->classOf(store, at));
        std::reverse(known.begin(), known.end());
    }
    const KeyFindings findings = checkKeyNotIgnored(
        key, info, m_profile, std::span<const SegmentClass>(known.data(), std::size_t(known.size())));
    QVarLengthArray<keyspace::Keyspace::FindingMark, 4> marks;
    // A key written after the scan, in a family that follows its own convention: judged as its family was.
    const std::uint32_t folded = findings.isEmpty() ? 0 : foldedRules(key);
    for (const KeyFinding& finding : findings) {
        if (folded >> ruleIndex(*finding.rule) & 1)
            continue;
        if (const std::optional<Severity> admitted =
                admit(store, node, *finding.rule, finding.severity, finding.detail, key))
            marks.append({unsigned(ruleIndex(*finding.rule)), unsigned(*admitted)});
    }
    if (!marks.isEmpty())
        store.addFindings(node, std::span(marks.data(), std::size_t(marks.size())));
}

void Linter::takeBack(keyspace::Keyspace& store, keyspace::NodeId node, std::uint32_t rules)
{
    rules &= store.findingRules(node);
    if (rules == 0)
        return;
    const QByteArray key = store.path(node);
    const std::vector<Severity> severities = recordedSeverities(key, store.keyInfo(node), m_profile);
    for (std::size_t index = 0; index < severities.size(); ++index) {
        if (!(rules >> index & 1))
            continue;
        retract(store, {node, std::uint8_t(index), std::uint8_t(severities[index])});
        std::erase_if(m_byRule[index].examples, [&](const Finding& example) { return example.key == key; });
    }
}

std::optional<QByteArray> Linter::namingVariantTarget(keyspace::NodeId node) const
{
    const std::uint32_t* spelling = m_variantTarget.find(node);
    return spelling ? std::optional(m_variantSpellings[*spelling]) : std::nullopt;
}

std::vector<std::pair<keyspace::NodeId, QByteArray>> Linter::namingVariantRenames(const keyspace::Keyspace& store) const
{
    std::vector<std::pair<keyspace::NodeId, QByteArray>> renames;
    m_variantTarget.forEach([&](keyspace::NodeId node, std::uint32_t spelling) {
        if (!store.isKey(node))
            return;
        if (std::optional<QByteArray> renamed =
                respell(store.path(node), m_variantSpellings[spelling], m_profile.delimiters.primary()))
            renames.emplace_back(node, std::move(*renamed));
    });
    std::sort(renames.begin(), renames.end(),
              [&](const auto& a, const auto& b) { return store.path(a.first) < store.path(b.first); });
    return renames;
}

void Linter::keyRemoved(keyspace::Keyspace& store, keyspace::NodeId node)
{
    if (!store.isKey(node))
        return;
    m_variantTarget.erase(node);
    takeBack(store, node, ~std::uint32_t(0));
    if (m_keys > 0)
        --m_keys;
    ++m_changes;
}

void Linter::keyChanged(keyspace::Keyspace& store, keyspace::NodeId node, const keyspace::KeyInfo& info)
{
    if (!store.isKey(node) || store.isLintIgnored(node))
        return;
    const QByteArray key = store.path(node);
    // The rules folded into the key's family stay its family's (the family's finding may be on this key).
    const std::uint32_t folded = foldedRules(key);
    std::uint32_t keyLevel = 0;
    for (const KeyFinding& finding : checkKey(key, store.keyInfo(node), m_profile))
        keyLevel |= std::uint32_t(1) << ruleIndex(*finding.rule);
    takeBack(store, node, keyLevel & ~folded);
    for (const KeyFinding& finding : checkKey(key, info, m_profile)) {
        if (!(folded >> ruleIndex(*finding.rule) & 1))
            record(store, node, *finding.rule, finding.severity, finding.detail, key);
    }
}

void Linter::lintKeys(keyspace::Keyspace& store)
{
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
        if (store.isKey(node))
            keyAdded(store, node, store.path(node), store.keyInfo(node));
    }
}

namespace {

// The key-level naming findings recorded on keys below the libraries' claims, to take back. The key
// rules ran as the keys arrived, before any layout could be recognised; they are pure, so running them
// again gives each finding's severity.
std::vector<Judgement::Retraction> namingRetractions(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                                                     const Profile& profile)
{
    std::uint32_t naming = 0;
    for (const RuleInfo& rule : allRules())
        naming |= isNamingRule(rule) ? std::uint32_t(1) << ruleIndex(rule) : 0;
    std::vector<Judgement::Retraction> retractions;
    std::vector<keyspace::NodeId> stack;
    for (const auto& [claim, library] : libraries.outermostClaims(store)) {
        stack.assign(1, claim);
        while (!stack.empty()) {
            const keyspace::NodeId node = stack.back();
            stack.pop_back();
            store.forEachChild(node, [&](keyspace::NodeId child) { stack.push_back(child); });
            const std::uint32_t rules = store.findingRules(node);
            if (!store.isKey(node) || !(rules & naming))
                continue;
            const std::vector<Severity> severities = recordedSeverities(store.path(node), store.keyInfo(node), profile);
            for (std::size_t index = 0; index < severities.size(); ++index) {
                if ((rules & naming) >> index & 1)
                    retractions.push_back({node, std::uint8_t(index), std::uint8_t(severities[index])});
            }
        }
    }
    return retractions;
}

// Says that no library was named, and what judged the keys instead.
QString noCatalogueNotice()
{
    return QStringLiteral("The library catalogue is off: no library is named, and what keys are for (cache, session, "
                          "lock, queue) comes from their own evidence: TTLs, words, types and values.");
}

// Says which libraries' keys the naming rules skipped, and how to lint them anyway.
QString exemptionNotice(const LibraryLayouts& libraries)
{
    QStringList ids;
    for (const LibraryInfo* library : libraries.libraries())
        ids << QString::fromLatin1(library->id);
    return QStringLiteral("The keys of recognised library layouts (%1) skipped the naming rules; the memory and TTL "
                          "rules judged them. A profile with \"exempt_libraries\": false lints them too.")
        .arg(ids.join(QStringLiteral(", ")));
}

} // namespace

template<typename Record>
void Linter::runNamespaceRules(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                               std::vector<QString>* notices, Record&& record,
                               const std::function<void()>& beforeRecording, const SegmentShapes* shapes) const
{
    const RuleInfo& missingTtl = *findRule("missing-ttl");
    const RuleInfo& avalanche = *findRule("expiry-avalanche");
    std::unordered_set<keyspace::NodeId> withoutTtl; // recorded missing-ttl here, once per key
    NamespaceRules rules(m_profile, m_values);
    rules.run(
        store,
        [&](keyspace::NodeId node, const RuleInfo& rule, Severity severity, QByteArrayView detail,
            const QByteArrayList& evidence) {
            const LibraryInfo* library = libraries.libraryOf(store, node);
            if (library && isNamingRule(rule) && m_profile.exemptLibraries)
                return;
            // A queue's keys live as long as their jobs; a rate limiter's windows expire together by design.
            if (library && &rule == &missingTtl && !shouldExpire(library->role))
                return;
            if (library && &rule == &avalanche && library->role == LibraryRole::RateLimit)
                return;
            if (&rule == &missingTtl)
                withoutTtl.insert(node);
            record(node, rule, severity, detail, evidence);
        },
        beforeRecording, shapes);
    *notices = rules.notices();
    if (m_profile.isEnabled(missingTtl))
        recordLibraryKeysWithoutTtl(store, libraries, withoutTtl, record);
}

template<typename Record>
void Linter::recordLibraryKeysWithoutTtl(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                                         const std::unordered_set<keyspace::NodeId>& recorded, Record&& record) const
{
    // What a library writes as a cache, a session or a lock should expire, whatever its keys are called: Django's,
    // Rails' and Flask's caches do not say "cache" in their keys. Known from the layout, not guessed from words.
    const RuleInfo& missingTtl = *findRule("missing-ttl");
    const std::size_t bit = ruleIndex(missingTtl);
    std::vector<keyspace::NodeId> stack;
    for (const auto& [claim, library] : libraries.outermostClaims(store)) {
        if (!shouldExpire(library->role))
            continue;
        const QByteArray detail = QByteArray("a ") + library->name + ' ' + roleName(library->role) +
                                  " key without a TTL: it stays until deleted or evicted";
        const QByteArrayList evidence{QByteArray("catalogue: ") + library->id + " (" + roleName(library->role) + ')'};
        stack.assign(1, claim);
        while (!stack.empty()) {
            const keyspace::NodeId node = stack.back();
            stack.pop_back();
            store.forEachChild(node, [&](keyspace::NodeId child) { stack.push_back(child); });
            if (!store.isKey(node) || store.keyInfo(node).expiresAtMs != keyspace::NoExpiry ||
                (store.findingRules(node) >> bit & 1) || recorded.count(node))
                continue;
            record(node, missingTtl, missingTtl.severity, detail, evidence);
        }
    }
}

void Linter::retract(keyspace::Keyspace& store, const Judgement::Retraction& retraction)
{
    if (!(store.findingRules(retraction.node) >> retraction.rule & 1))
        return;
    store.removeFinding(retraction.node, retraction.rule, retraction.severity);
    if (allRules()[retraction.rule].id == QByteArrayView("naming-variants"))
        m_variantTarget.erase(retraction.node);
    ++m_changes;
    RuleSummary& summary = m_byRule[retraction.rule];
    if (summary.findings > 0) // a severity told wrong must not wrap the counts
        --summary.findings;
    if (summary.bySeverity[retraction.severity] > 0)
        --summary.bySeverity[retraction.severity];
}

void Linter::forgetRetractedExamples(const keyspace::Keyspace& store)
{
    for (RuleSummary& summary : m_byRule) {
        if (!isNamingRule(*summary.rule) || summary.examples.empty())
            continue;
        const std::size_t bit = ruleIndex(*summary.rule);
        std::erase_if(summary.examples, [&](const Finding& example) {
            const keyspace::NodeId node = store.find(example.key);
            return node != keyspace::InvalidNode && !(store.findingRules(node) >> bit & 1);
        });
    }
}

std::unique_ptr<FamilyConventions> Linter::countFamilies(const keyspace::Keyspace& store,
                                                         const LibraryLayouts& libraries,
                                                         const SegmentShapes* shapes) const
{
    if (!m_profile.foldFamilies)
        return nullptr;
    std::vector<keyspace::NodeId> exempt;
    if (m_profile.exemptLibraries) {
        for (const auto& [claim, library] : libraries.outermostClaims(store))
            exempt.push_back(claim);
    }
    return std::make_unique<FamilyConventions>(store, m_profile, exempt, shapes);
}

void Linter::foldFamilies(keyspace::Keyspace& store, FamilyConventions& families)
{
    bool folded = false;
    const FamilyFolding folding = families.fold([&](const FoldedKeyFinding& finding) {
        retract(store, {finding.node, finding.rule, finding.severity});
        folded = true;
    });
    if (folded)
        forgetRetractedExamples(store);
    recordFolded(store, folding.findings);
    m_notices.insert(m_notices.end(), folding.notices.begin(), folding.notices.end());
    m_families.foldedWords = folding.foldedWords;
}

void Linter::foldLengthPatterns(keyspace::Keyspace& store)
{
    if (!m_profile.foldFamilies)
        return;
    bool folded = false;
    FamilyFolding folding = LengthPatterns::fold(store, m_profile, {}, [&](const FoldedKeyFinding& finding) {
        retract(store, {finding.node, finding.rule, finding.severity});
        folded = true;
    });
    if (folded)
        forgetRetractedExamples(store);
    recordFolded(store, folding.findings);
    m_families.foldedLengthPatterns = std::move(folding.foldedLengthPatterns);
}

void Linter::recordFolded(keyspace::Keyspace& store, const std::vector<FamilyFinding>& findings)
{
    for (const FamilyFinding& finding : findings) {
        record(store, finding.node, *finding.rule, finding.severity, finding.detail);
        m_covered.push_back({finding.node, std::uint8_t(ruleIndex(*finding.rule)), finding.keys, finding.memory});
    }
}

std::uint32_t Linter::foldedRules(QByteArrayView key) const
{
    if (!m_finished)
        return 0;
    std::uint32_t rules = m_families.foldedRules(key, m_profile.delimiters);
    // A long key of a pattern whose long keys are one finding: judged as they were.
    const std::vector<QByteArray>& patterns = m_families.foldedLengthPatterns;
    if (!patterns.empty() && std::uint64_t(key.size()) > m_profile.keyLengthInfo &&
        std::binary_search(patterns.begin(), patterns.end(), patternOfKey(key, m_profile.delimiters)))
        rules |= std::uint32_t(1) << ruleIndex(*findRule("key-length"));
    return rules;
}

void Linter::finish(keyspace::Keyspace& store, const SetMembers& members, const SegmentShapes* shapes)
{
    if (m_finished)
        return;
    m_finished = true;
    // Recognised whatever the exemption (a library's role decides its TTL rules; the exemption is the naming rules'),
    // unless the profile turns the catalogue off.
    // The layouts and the retractions they make only read the store, as the namespace rules do until they record:
    // on a thread of their own meanwhile (a tenth of a second at a million keys), joined before anything is written.
    std::vector<Judgement::Retraction> retractions;
    std::unique_ptr<FamilyConventions> families;
    base::SideTask recognising([&] {
        if (m_profile.libraryCatalogue)
            m_libraries = LibraryLayouts::recognise(store, members, shapes);
        if (m_profile.exemptLibraries)
            retractions = namingRetractions(store, m_libraries, m_profile);
        families = countFamilies(store, m_libraries, shapes);
    });
    const auto retractNaming = [&] {
        recognising.wait();
        for (const Judgement::Retraction& retraction : retractions)
            retract(store, retraction);
        if (m_profile.exemptLibraries && !m_libraries.isEmpty())
            forgetRetractedExamples(store);
    };
    runNamespaceRules(
        store, m_libraries, &m_notices,
        [&](keyspace::NodeId node, const RuleInfo& rule, Severity severity, QByteArrayView detail,
            const QByteArrayList& evidence) { record(store, node, rule, severity, detail, {}, evidence); },
        retractNaming, shapes);
    if (!recognising.isWaitedFor()) // the rules returned before recording (a profile without namespace rules)
        retractNaming();
    if (!m_libraries.isEmpty() && m_profile.exemptLibraries)
        m_notices.push_back(exemptionNotice(m_libraries));
    // The families were counted beside the namespace rules (two bytes a namespace kept); their findings are folded
    // last, taken back as they are found, not listed (a few hundred thousand at a million keys).
    if (families)
        foldFamilies(store, *families);
    foldLengthPatterns(store);
    if (!m_profile.libraryCatalogue)
        m_notices.push_back(noCatalogueNotice());
}

Judgement Linter::judge(const keyspace::Keyspace& store, const SetMembers& members) const
{
    Judgement judgement;
    if (m_profile.libraryCatalogue)
        judgement.libraries = LibraryLayouts::recognise(store, members);
    if (m_profile.exemptLibraries)
        judgement.retractions = namingRetractions(store, judgement.libraries, m_profile);
    FamilyFolding families;
    if (const std::unique_ptr<FamilyConventions> counted = countFamilies(store, judgement.libraries, nullptr)) {
        families = counted->fold([&](const FoldedKeyFinding& folded) {
            judgement.retractions.push_back({folded.node, folded.rule, folded.severity});
        });
    }
    runNamespaceRules(store, judgement.libraries, &judgement.notices,
                      [&](keyspace::NodeId node, const RuleInfo& rule, Severity severity, QByteArrayView detail,
                          const QByteArrayList& evidence) {
                          // The rules hand out one detail for a whole group of keys in a row: kept once.
                          if (judgement.details.empty() || judgement.details.back() != detail ||
                              judgement.evidence.back() != evidence) {
                              judgement.details.push_back(detail.toByteArray());
                              judgement.evidence.push_back(evidence);
                          }
                          judgement.verdicts.push_back({node, std::uint32_t(judgement.details.size() - 1),
                                                        std::uint8_t(ruleIndex(rule)), severity});
                      });
    if (!judgement.libraries.isEmpty() && m_profile.exemptLibraries)
        judgement.notices.push_back(exemptionNotice(judgement.libraries));
    // The long names left, by pattern: the keys whose key-length finding is taken back already (a family's, a
    // library's) are not counted again.
    if (m_profile.foldFamilies) {
        const std::size_t keyLength = ruleIndex(*findRule("key-length"));
        std::vector<bool> retracted(store.nodeCount(), false);
        for (const Judgement::Retraction& retraction : judgement.retractions) {
            if (retraction.rule == keyLength)
                retracted[retraction.node] = true;
        }
        FamilyFolding lengths = LengthPatterns::fold(
            store, m_profile, [&](keyspace::NodeId node) { return bool(retracted[node]); },
            [&](const FoldedKeyFinding& folded) {
                judgement.retractions.push_back({folded.node, folded.rule, folded.severity});
            });
        families.findings.insert(families.findings.end(), lengths.findings.begin(), lengths.findings.end());
        judgement.foldedLengthPatterns = std::move(lengths.foldedLengthPatterns);
    }
    for (const FamilyFinding& finding : families.findings) {
        judgement.details.push_back(finding.detail);
        judgement.evidence.emplace_back(); // evidenceOf() says it: the family's name and its habit
        judgement.verdicts.push_back({finding.node, std::uint32_t(judgement.details.size() - 1),
                                      std::uint8_t(ruleIndex(*finding.rule)), finding.severity});
        judgement.covered.push_back(
            {finding.node, std::uint8_t(ruleIndex(*finding.rule)), finding.keys, finding.memory});
    }
    judgement.notices.insert(judgement.notices.end(), families.notices.begin(), families.notices.end());
    judgement.foldedFamilies = std::move(families.foldedWords);
    if (!m_profile.libraryCatalogue)
        judgement.notices.push_back(noCatalogueNotice());
    const auto variants = std::uint8_t(ruleIndex(*findRule("naming-variants")));
    std::size_t variantVerdicts = 0;
    for (std::size_t i = 0; i < judgement.verdicts.size(); ++i)
        variantVerdicts += judgement.verdicts[i].rule == variants ? 1 : 0;
    judgement.variantTargets.reserve(m_variantTarget.size() + variantVerdicts);
    return judgement;
}

bool Linter::apply(keyspace::Keyspace& store, Judgement& judgement, std::size_t count)
{
    if (!judgement.variantTargetsTaken) {
        judgement.variantTargetsTaken = true;
        m_variantTarget.forEach([&](keyspace::NodeId node, std::uint32_t spelling) { // none, but for a re-judge
            judgement.variantTargets.insertOrAssign(node, spelling);
        });
        m_variantTarget = std::move(judgement.variantTargets);
    }
    const std::size_t retractEnd = std::min(judgement.retractions.size(), judgement.retracted + count);
    count -= retractEnd - judgement.retracted;
    for (; judgement.retracted < retractEnd; ++judgement.retracted)
        retract(store, judgement.retractions[judgement.retracted]);
    if (judgement.retracted < judgement.retractions.size())
        return false;
    if (judgement.applied == 0 && !judgement.retractions.empty())
        forgetRetractedExamples(store);
    const std::size_t end = std::min(judgement.verdicts.size(), judgement.applied + count);
    for (; judgement.applied < end; ++judgement.applied) {
        const Judgement::Verdict& verdict = judgement.verdicts[judgement.applied];
        record(store, verdict.node, allRules()[verdict.rule], verdict.severity, judgement.details[verdict.detail], {},
               judgement.evidence[verdict.detail]);
    }
    if (judgement.applied < judgement.verdicts.size())
        return false;
    m_finished = true;
    m_notices = judgement.notices;
    m_libraries = std::move(judgement.libraries);
    m_families.foldedWords = std::move(judgement.foldedFamilies);
    m_families.foldedLengthPatterns = std::move(judgement.foldedLengthPatterns);
    m_covered = std::move(judgement.covered);
    return true;
}

namespace {

// A queue's history of finished jobs, by the library's layout, and the setting that trims it; nullptr for another key.
// Sidekiq trims its dead set itself at dead_max_jobs (10,000): only one near that cap is said.
struct History
{
    const char* setting;
    std::uint64_t above;
};
std::optional<History> historyOf(QByteArrayView library, QByteArrayView segment, QByteArrayView parent)
{
    constexpr std::uint64_t Kept = 1000;
    if ((library == "bullmq" || library == "bull") && (segment == "completed" || segment == "failed"))
        return History{"BullMQ's and Bull's removeOnComplete / removeOnFail job options (a count or an age)", Kept};
    if (library == "bee-queue" && (segment == "succeeded" || segment == "failed"))
        return History{"Bee-Queue's removeOnSuccess / removeOnFailure", Kept};
    if (library == "rq" && (parent == "finished" || parent == "failed"))
        return History{"RQ's result_ttl (not -1) and failure_ttl", Kept};
    if (library == "resque" && segment == "failed")
        return History{"Resque's failed list, which only Resque::Failure.clear (node-resque: removeFailed) trims",
                       Kept};
    if (library == "sidekiq" && segment == "dead")
        return History{"Sidekiq's dead_max_jobs and dead_timeout_in_seconds", 9000};
    return std::nullopt;
}

} // namespace

void Linter::lengthKnown(keyspace::Keyspace& store, keyspace::NodeId node, std::uint64_t length)
{
    if (const LibraryInfo* library = m_libraries.libraryOf(store, node);
        library && library->role == LibraryRole::Queue) {
        const keyspace::NodeId parent = store.parent(node);
        const std::optional<History> history =
            historyOf(library->id, store.segment(node),
                      parent == keyspace::Keyspace::root() ? QByteArrayView() : store.segment(parent));
        if (history && length >= history->above) {
            const RuleInfo& rule = *findRule("unbounded-history");
            const keyspace::KeyInfo info = store.keyInfo(node);
            QByteArray detail = QByteArray::number(qulonglong(length)) + " finished jobs kept";
            if (info.memoryMeasured)
                detail += " in " + QByteArray::number(qulonglong(info.memoryBytes)) + " bytes";
            record(store, node, rule, m_profile.severityOf(rule, rule.severity),
                   QByteArray(detail + "; see " + history->setting));
        }
    }
    const keyspace::KeyType type = store.keyInfo(node).type;
    if (!isBigKey(type, length))
        return;
    const bool string = type == keyspace::KeyType::String;
    const RuleInfo& rule = *findRule(string ? "big-string" : "big-collection");
    record(store, node, rule, rule.severity,
           QByteArray(QByteArray::number(qulonglong(length)) + (string ? " bytes" : " elements")));
}

std::vector<RuleSummary> Linter::summaries() const
{
    std::vector<RuleSummary> out;
    for (const RuleSummary& summary : m_byRule) {
        if (summary.findings > 0)
            out.push_back(summary);
    }
    return out;
}

std::uint64_t Linter::findings() const
{
    std::uint64_t total = 0;
    for (const RuleSummary& summary : m_byRule)
        total += summary.findings;
    return total;
}

std::uint64_t Linter::findings(Severity severity) const
{
    std::uint64_t total = 0;
    for (const RuleSummary& summary : m_byRule)
        total += summary.bySeverity[std::size_t(severity)];
    return total;
}

std::optional<Severity> Linter::worst() const
{
    for (const Severity severity : {Severity::Error, Severity::Warning, Severity::Info}) {
        if (findings(severity) > 0)
            return severity;
    }
    return std::nullopt;
}

} // namespace keylens::lint
