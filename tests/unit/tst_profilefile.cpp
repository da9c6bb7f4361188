// Profile files: what each field changes, and a bad file refused with its line and field.
#include "lint/ProfileFile.h"

#include <QTest>

using namespace keylens;

namespace {

std::optional<lint::Profile> parse(const char* text, QString* error)
{
    return lint::parseProfile(QByteArray(text), QStringLiteral("acme.json"), error);
}

} // namespace

class TestProfileFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badFilesNameLineAndField_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error"); // the start of the message, after "acme.json:"
        QTest::newRow("not json") << QByteArray("{\n  \"rules\": {\n    \"uppercase\": tru\n  }\n}\n")
                                  << QStringLiteral("3: not valid JSON");
        QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("1: a profile is a JSON object");
        QTest::newRow("unknown rule") << QByteArray("{\n  \"rules\": {\n    \"upper-case\": false\n  }\n}")
                                      << QStringLiteral("3: rules.upper-case: no such rule");
        QTest::newRow("bad severity")
            << QByteArray("{\n  \"rules\": {\n    \"delimiter\": true,\n    \"uppercase\": { \"severity\": \"high\" }\n"
                          "  }\n}")
            << QStringLiteral("4: rules.uppercase.severity: takes error, warning or info, not \"high\"");
        QTest::newRow("negative threshold")
            << QByteArray("{\n  \"rules\": {\n    \"key-length\": {\n      \"info\": -5\n    }\n  }\n}")
            << QStringLiteral("4: rules.key-length.info: takes a whole number from 1 to");
        QTest::newRow("fractional threshold")
            << QByteArray("{ \"rules\": { \"deep-nesting\": { \"max_segments\": 2.5 } } }")
            << QStringLiteral("1: rules.deep-nesting.max_segments: takes a whole number");
        QTest::newRow("threshold of another rule")
            << QByteArray("{\n \"rules\": {\n  \"uppercase\": {\n   \"max_segments\": 3\n  }\n }\n}")
            << QStringLiteral("4: rules.uppercase.max_segments: unknown field (known here: enabled, severity)");
        QTest::newRow("unknown top-level field")
            << QByteArray("{\n  \"name\": \"x\",\n  \"rulez\": {}\n}") << QStringLiteral("3: rulez: unknown field");
        QTest::newRow("unknown base") << QByteArray("{ \"extends\": \"lenient\" }")
                                      << QStringLiteral("1: extends: takes default or strict, not \"lenient\"");
        QTest::newRow("volatile not a list")
            << QByteArray("{\n  \"namespaces\": {\n    \"volatile\": \"cache\"\n  }\n}")
            << QStringLiteral("3: namespaces.volatile: takes a list of strings");
        QTest::newRow("empty word") << QByteArray("{\n  \"namespaces\": {\n    \"allowed\": [\"user\", \"\"]\n  }\n}")
                                    << QStringLiteral("3: namespaces.allowed: takes a list of non-empty strings");
        QTest::newRow("alias not a string") << QByteArray("{\n  \"aliases\": {\n    \"db\": 1\n  }\n}")
                                            << QStringLiteral("3: aliases.db: takes the word it stands for");
        QTest::newRow("enabled not a bool")
            << QByteArray("{\n  \"rules\": {\n    \"delimiter\": {\n      \"enabled\": \"yes\"\n    }\n  }\n}")
            << QStringLiteral("4: rules.delimiter.enabled: takes true or false");
        QTest::newRow("synonyms flat") << QByteArray("{\n  \"synonyms\": [\"detail\", \"info\"]\n}")
                                       << QStringLiteral("2: synonyms: takes a list of strings");
    }

    void badFilesNameLineAndField()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QString message;
        QVERIFY(!lint::parseProfile(text, QStringLiteral("acme.json"), &message));
        QVERIFY2(message.startsWith(QStringLiteral("acme.json:") + error), qPrintable(message));
    }

    void fieldsChangeTheProfile()
    {
        QString error;
        const std::optional<lint::Profile> profile = parse(R"({
            "extends": "strict",
            "name": "acme",
            "rules": { "uppercase": false, "delimiter": { "severity": "error" },
                       "key-length": { "info": 60, "warning": 120, "error": 2000 },
                       "deep-nesting": { "max_segments": 4 },
                       "expiry-avalanche": { "window_seconds": 30, "share": 0.8, "min_keys": 10 } },
            "namespaces": { "allowed": ["user"], "volatile": ["Cache", "otp"], "ignore": ["bull:*"] },
            "aliases": { "pk": "primary key" },
            "synonyms": [["detail", "info"]],
            "environments": ["live"] })",
                                                           &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->name, QStringLiteral("acme"));
        QVERIFY(!profile->isEnabled(*lint::findRule("uppercase")));
        QCOMPARE(profile->severityOf(*lint::findRule("delimiter")), lint::Severity::Error);
        QVERIFY(profile->isEnabled(*lint::findRule("mid-key-id"))); // from strict
        QVERIFY(!lint::builtInProfile("default")->isEnabled(*lint::findRule("mid-key-id")));
        QCOMPARE(profile->keyLengthInfo, 60u);
        QCOMPARE(profile->keyLengthWarning, 120u);
        QCOMPARE(profile->keyLengthError, 2000u);
        QCOMPARE(profile->maxSegments, 4u);
        QCOMPARE(profile->avalancheWindowSeconds, 30u);
        QCOMPARE(profile->avalancheShare, 0.8);
        QCOMPARE(profile->avalancheMinimumKeys, 10u);
        QCOMPARE(profile->allowedNamespaces, std::vector<QByteArray>{"user"});
        QVERIFY(profile->isVolatileNamespace("cache")); // lower-cased
        QVERIFY(profile->isVolatileNamespace("otp"));
        QVERIFY(!profile->isVolatileNamespace("session")); // the list replaces the default one
        QVERIFY(profile->isIgnored("bull:emails:42"));
        QVERIFY(!profile->isIgnored("user:42"));
        QVERIFY(profile->isAlias("pk"));
        QVERIFY(!profile->isAlias("db")); // the map replaces the default one
        QVERIFY(profile->synonymGroupOf("info"));
        QVERIFY(!profile->synonymGroupOf("prefs"));
        QCOMPARE(profile->environments, std::vector<QByteArray>{"live"});
    }

    void emptyFileIsTheDefaultCalledAfterTheFile()
    {
        QString error;
        const std::optional<lint::Profile> profile = parse("{}", &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->name, QStringLiteral("acme"));
        QVERIFY(profile->isEnabled(*lint::findRule("uppercase")));
        QVERIFY(!profile->isEnabled(*lint::findRule("mid-key-id")));
    }

    void loadsByNameOrFile()
    {
        QString error;
        QVERIFY(lint::loadProfile(QStringLiteral("strict"), &error));
        QVERIFY(!lint::loadProfile(QStringLiteral("/nonexistent/acme.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent/acme.json")), qPrintable(error));
        QVERIFY(!lint::loadProfile(QStringLiteral("lenient"), &error));
        QVERIFY2(error.contains(QStringLiteral("lenient")), qPrintable(error));
    }

    void exemptLibrariesTakesABool()
    {
        QString error;
        std::optional<lint::Profile> profile =
            lint::parseProfile(R"({"exempt_libraries": false})", QStringLiteral("p.json"), &error);
        QVERIFY2(profile, qPrintable(error));
        QVERIFY(!profile->exemptLibraries);
        QVERIFY(!lint::parseProfile(R"({"exempt_libraries": "no"})", QStringLiteral("p.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("exempt_libraries")), qPrintable(error));
        QVERIFY(lint::builtInProfile("default")->exemptLibraries);

        profile = lint::parseProfile(R"({"fold_families": false})", QStringLiteral("p.json"), &error);
        QVERIFY2(profile, qPrintable(error));
        QVERIFY(!profile->foldFamilies);
        QVERIFY(!lint::parseProfile(R"({"fold_families": 1})", QStringLiteral("p.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("fold_families")), qPrintable(error));
        QVERIFY(lint::builtInProfile("default")->foldFamilies);
    }

    void libraryCatalogueTakesABool()
    {
        QString error;
        std::optional<lint::Profile> profile =
            lint::parseProfile(R"({"library_catalogue": false})", QStringLiteral("p.json"), &error);
        QVERIFY2(profile, qPrintable(error));
        QVERIFY(!profile->libraryCatalogue);
        QVERIFY(!lint::parseProfile(R"({"library_catalogue": 0})", QStringLiteral("p.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("library_catalogue")), qPrintable(error));
        QVERIFY(lint::builtInProfile("default")->libraryCatalogue);
    }

    // The documented example must load, and must mean what its README says.
    void exampleInResourcesLoads()
    {
        QString error;
        const std::optional<lint::Profile> profile =
            lint::loadProfile(QStringLiteral(KEYLENS_SOURCE_DIR "/resources/profiles/example.json"), &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->name, QStringLiteral("acme-shop"));
        QVERIFY(profile->isIgnored("legacy:emails:1"));
        QVERIFY(!profile->isIgnored("bull:emails:1")); // libraries are recognised, not ignored by name
        QVERIFY(profile->exemptLibraries);
        QVERIFY(profile->isEnabled(*lint::findRule("mid-key-id")));
        QVERIFY(!profile->isEnabled(*lint::findRule("env-prefixes")));
        QCOMPARE(profile->keyLengthInfo, 64u);
    }
};

QTEST_GUILESS_MAIN(TestProfileFile)
#include "tst_profilefile.moc"
