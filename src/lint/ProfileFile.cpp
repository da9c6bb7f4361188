#include "lint/ProfileFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cmath>
#include <functional>

namespace keylens::lint {

namespace {

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* name : list)
        out << QLatin1String(name);
    return out;
}

// Thrown inside the parser only: the field path and what is wrong with it.
struct BadField
{
    QStringList path;
    QString problem;
};

// Reads one profile file, keeping the text so that an error can name the line of the field it is about
// (QJsonDocument keeps no positions).
class ProfileParser
{
public:
    ProfileParser(const QByteArray& text, QString source, QString defaultName)
        : m_text(text)
        , m_source(std::move(source))
        , m_defaultName(std::move(defaultName))
    {}

    std::optional<Profile> parse(QString* error)
    {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(m_text, &parseError);
        if (parseError.error != QJsonParseError::NoError) {
            *error = QStringLiteral("%1:%2: not valid JSON: %3")
                         .arg(m_source)
                         .arg(lineAt(endOfTokenBefore(parseError.offset)))
                         .arg(parseError.errorString());
            return std::nullopt;
        }
        if (!document.isObject()) {
            *error = QStringLiteral("%1:1: a profile is a JSON object ({ … })").arg(m_source);
            return std::nullopt;
        }
        try {
            return read(document.object());
        } catch (const BadField& bad) {
            *error = QStringLiteral("%1:%2: %3: %4")
                         .arg(m_source)
                         .arg(lineOf(bad.path))
                         .arg(bad.path.join(QLatin1Char('.')), bad.problem);
            return std::nullopt;
        }
    }

private:
    Profile read(const QJsonObject& root)
    {
        allowOnly(root, {},
                  names({"extends", "name", "rules", "namespaces", "aliases", "synonyms", "environments",
                         "exempt_libraries", "fold_families", "library_catalogue"}));
        const QString base =
            root.contains(QLatin1String("extends")) ? text(root, names({"extends"})) : QStringLiteral("default");
        std::optional<Profile> profile = builtInProfile(base.toUtf8());
        if (!profile)
            throw BadField{names({"extends"}), QStringLiteral("takes default or strict, not \"%1\"").arg(base)};
        profile->name = root.contains(QLatin1String("name")) ? text(root, names({"name"})) : m_defaultName;

        const QJsonObject rules = object(root, names({"rules"}));
        for (auto it = rules.begin(); it != rules.end(); ++it)
            readRule(*profile, it.key(), it.value());

        const QJsonObject namespaces = object(root, names({"namespaces"}));
        allowOnly(namespaces, names({"namespaces"}), names({"allowed", "volatile", "ignore"}));
        if (namespaces.contains(QLatin1String("allowed")))
            profile->allowedNamespaces = words(namespaces, names({"namespaces", "allowed"}), false);
        if (namespaces.contains(QLatin1String("volatile")))
            profile->volatileNamespaces = words(namespaces, names({"namespaces", "volatile"}), true);
        if (namespaces.contains(QLatin1String("ignore"))) {
            profile->ignore.clear();
            for (const QByteArray& glob : words(namespaces, names({"namespaces", "ignore"}), false))
                profile->ignore.emplace_back(glob);
        }
        if (root.contains(QLatin1String("aliases"))) {
            profile->aliases.clear();
            const QJsonObject aliases = object(root, names({"aliases"}));
            for (auto it = aliases.begin(); it != aliases.end(); ++it) {
                if (!it.value().isString())
                    throw BadField{names({"aliases"}) << it.key(),
                                   QStringLiteral("takes the word it stands for, as a string")};
                profile->aliases.push_back(it.key().toLower().toUtf8());
            }
        }
        if (root.contains(QLatin1String("synonyms"))) {
            profile->synonymGroups.clear();
            const QJsonValue groups = root.value(QLatin1String("synonyms"));
            if (!groups.isArray())
                throw BadField{names({"synonyms"}), QStringLiteral("takes a list of lists of words")};
            for (const QJsonValue& group : groups.toArray())
                profile->synonymGroups.push_back(wordList(group, names({"synonyms"}), true));
        }
        if (root.contains(QLatin1String("environments")))
            profile->environments = words(root, names({"environments"}), true);
        const auto readSwitch = [&](const char* name, bool& value) {
            if (!root.contains(QLatin1String(name)))
                return;
            const QJsonValue given = root.value(QLatin1String(name));
            if (!given.isBool())
                throw BadField{names({name}), QStringLiteral("takes true or false")};
            value = given.toBool();
        };
        readSwitch("exempt_libraries", profile->exemptLibraries);
        readSwitch("fold_families", profile->foldFamilies);
        readSwitch("library_catalogue", profile->libraryCatalogue);
        return *profile;
    }

    void readRule(Profile& profile, const QString& id, const QJsonValue& value)
    {
        const RuleInfo* rule = findRule(id.toUtf8());
        if (!rule)
            throw BadField{names({"rules"}) << id, QStringLiteral("no such rule (keylens-cli lint --help lists them)")};
        RuleSetting& setting = profile.rules[ruleIndex(*rule)];
        if (value.isBool()) {
            setting.enabled = value.toBool();
            return;
        }
        if (!value.isObject())
            throw BadField{names({"rules"}) << id, QStringLiteral("takes true, false or an object")};
        const QJsonObject fields = value.toObject();
        const QStringList path = names({"rules"}) << id;
        QStringList allowed = names({"enabled", "severity"});
        const auto threshold = [&](const char* name, auto* member, double minimum, double maximum) {
            allowed << QLatin1String(name);
            if (fields.contains(QLatin1String(name)))
                *member =
                    number<std::remove_pointer_t<decltype(member)>>(fields, path + names({name}), minimum, maximum);
        };
        const QByteArrayView ruleId = rule->id;
        if (ruleId == "key-length") {
            threshold("info", &profile.keyLengthInfo, 1, 1 << 29);
            threshold("warning", &profile.keyLengthWarning, 1, 1 << 29);
            threshold("error", &profile.keyLengthError, 1, 1 << 29);
        } else if (ruleId == "deep-nesting") {
            threshold("max_segments", &profile.maxSegments, 1, 1 << 20);
        } else if (ruleId == "expiry-avalanche") {
            threshold("window_seconds", &profile.avalancheWindowSeconds, 1, 365 * 86400);
            threshold("share", &profile.avalancheShare, 0.01, 1);
            threshold("min_keys", &profile.avalancheMinimumKeys, 2, 1e9);
        } else if (ruleId == "cold-data") {
            threshold("share", &profile.coldDataShare, 0.01, 1);
            threshold("min_bytes", &profile.coldDataMinimumBytes, 0, 1e15);
        } else if (ruleId == "data-in-key") {
            threshold("min_keys", &profile.dataInKeyMinimumKeys, 2, 1e9);
            threshold("max_values", &profile.dataInKeyMaximumValues, 2, 1000);
        }
        allowOnly(fields, path, allowed);
        if (fields.contains(QLatin1String("enabled"))) {
            if (!fields.value(QLatin1String("enabled")).isBool())
                throw BadField{path + names({"enabled"}), QStringLiteral("takes true or false")};
            setting.enabled = fields.value(QLatin1String("enabled")).toBool();
        }
        if (fields.contains(QLatin1String("severity"))) {
            const QString name = text(fields, path + names({"severity"}));
            setting.severity = severityFromName(name.toUtf8());
            if (!setting.severity)
                throw BadField{path + names({"severity"}),
                               QStringLiteral("takes error, warning or info, not \"%1\"").arg(name)};
        }
    }

    static void allowOnly(const QJsonObject& object, const QStringList& path, const QStringList& fields)
    {
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (!fields.contains(it.key()))
                throw BadField{path + QStringList{it.key()},
                               QStringLiteral("unknown field (known here: %1)").arg(fields.join(QLatin1String(", ")))};
        }
    }

    static QString text(const QJsonObject& object, const QStringList& path)
    {
        const QJsonValue value = object.value(path.back());
        if (!value.isString())
            throw BadField{path, QStringLiteral("takes a string")};
        return value.toString();
    }

    static QJsonObject object(const QJsonObject& parent, const QStringList& path)
    {
        const QJsonValue value = parent.value(path.back());
        if (value.isUndefined())
            return {};
        if (!value.isObject())
            throw BadField{path, QStringLiteral("takes an object ({ … })")};
        return value.toObject();
    }

    template<typename Number>
    static Number number(const QJsonObject& object, const QStringList& path, double minimum, double maximum)
    {
        const QJsonValue value = object.value(path.back());
        const double number = value.toDouble(std::nan(""));
        const bool whole = std::is_integral_v<Number>;
        if (!value.isDouble() || number < minimum || number > maximum || (whole && number != std::floor(number)))
            throw BadField{path, QStringLiteral("takes a %1 from %2 to %3")
                                     .arg(whole ? QStringLiteral("whole number") : QStringLiteral("number"))
                                     .arg(minimum)
                                     .arg(maximum)};
        return static_cast<Number>(number);
    }

    static std::vector<QByteArray> wordList(const QJsonValue& value, const QStringList& path, bool lowerCase)
    {
        if (!value.isArray())
            throw BadField{path, QStringLiteral("takes a list of strings")};
        std::vector<QByteArray> out;
        for (const QJsonValue& item : value.toArray()) {
            if (!item.isString() || item.toString().isEmpty())
                throw BadField{path, QStringLiteral("takes a list of non-empty strings")};
            const QString word = lowerCase ? item.toString().toLower() : item.toString();
            out.push_back(word.toUtf8());
        }
        return out;
    }

    static std::vector<QByteArray> words(const QJsonObject& object, const QStringList& path, bool lowerCase)
    {
        return wordList(object.value(path.back()), path, lowerCase);
    }

    int lineAt(qsizetype offset) const { return int(m_text.left(offset).count('\n')) + 1; }

    // Qt reports a syntax error where it stopped reading, often past the line break after the bad token
    // (`"uppercase": tru` is reported at the `}` below it): step back to the token.
    qsizetype endOfTokenBefore(qsizetype offset) const
    {
        offset = std::min(offset, m_text.size());
        while (offset > 0 && QByteArrayView(" \t\r\n}],").contains(m_text[offset - 1]))
            --offset;
        return offset;
    }

    // The line where the field named by `path` is written: each name of the path searched in turn, after
    // the one before it. Close enough to point a person at the right place.
    int lineOf(const QStringList& path) const
    {
        qsizetype at = 0;
        for (const QString& name : path) {
            const qsizetype found = m_text.indexOf(QByteArray('"' + name.toUtf8() + '"'), at);
            if (found < 0)
                break;
            at = found;
        }
        return lineAt(at);
    }

    QByteArray m_text;
    QString m_source;
    QString m_defaultName; // a profile without "name" is called after its file
};

} // namespace

std::optional<Profile> parseProfile(const QByteArray& text, const QString& source, QString* error)
{
    return ProfileParser(text, source, QFileInfo(source).completeBaseName()).parse(error);
}

std::optional<Profile> loadProfile(const QString& nameOrPath, QString* error)
{
    if (std::optional<Profile> builtIn = builtInProfile(nameOrPath.toUtf8()))
        return builtIn;
    QFile file(nameOrPath);
    if (!file.exists()) {
        *error = QStringLiteral("no profile named \"%1\": give default, strict or the path of a profile file")
                     .arg(nameOrPath);
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the profile %1: %2").arg(nameOrPath, file.errorString());
        return std::nullopt;
    }
    return parseProfile(file.readAll(), nameOrPath, error);
}

} // namespace keylens::lint
