// The browser's findings against keylens-cli lint on the same server: per-node counts in the tree, the
// findings filter, the Findings panel selecting a key, profiles per connection and on the command line,
// and `--screenshot --view findings`.
#include "CliRunner.h"
#include "GuiRunner.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "keyspace/KeyEscape.h"
#include "lint/ProfileFile.h"
#include "lint/Rules.h"
#include "models/EndOfScan.h"
#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/FindingsPanel.h"
#include "ui/LegendDialog.h"
#include "ui/MainWindow.h"

#include <QComboBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>

#include <map>
#include <set>

using namespace keylens;
using models::KeyTreeModel;

namespace {

struct CliFindings
{
    std::uint64_t total = 0;
    std::map<QByteArray, std::uint64_t> byRule;
    std::vector<std::pair<QByteArray, QByteArray>> keyAndRule;         // every finding
    std::map<std::pair<QByteArray, QByteArray>, std::uint64_t> groups; // (rule, pattern) -> keys
    qint64 patterns = 0;
};

} // namespace

class TestFindings : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;

    CliFindings cliFindings(const QString& profile = QStringLiteral("default"))
    {
        const auto run = test::runCli(
            {QStringLiteral("lint"), QStringLiteral("-p"), QString::number(m_server.port()), QStringLiteral("--format"),
             QStringLiteral("json"), QStringLiteral("--max-examples"), QStringLiteral("0"), QStringLiteral("--fail-on"),
             QStringLiteral("never"), QStringLiteral("--profile"), profile});
        CliFindings out;
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        out.total = std::uint64_t(report[QStringLiteral("summary")].toObject()[QStringLiteral("findings")].toInteger());
        for (const QJsonValue& value : report[QStringLiteral("findings")].toArray()) {
            const QJsonObject finding = value.toObject();
            const QByteArray rule = finding[QStringLiteral("rule")].toString().toUtf8();
            ++out.byRule[rule];
            out.keyAndRule.emplace_back(finding[QStringLiteral("key")].toString().toUtf8(), rule);
        }
        for (const QJsonValue& value : report[QStringLiteral("groups")].toArray()) {
            const QJsonObject group = value.toObject();
            out.groups[{group[QStringLiteral("rule")].toString().toUtf8(),
                        group[QStringLiteral("pattern")].toString().toUtf8()}] =
                std::uint64_t(group[QStringLiteral("keys")].toInteger());
        }
        out.patterns = report[QStringLiteral("summary")].toObject()[QStringLiteral("patterns")].toInteger();
        return out;
    }

    std::unique_ptr<ui::MainWindow> scannedWindow(const QString& profile = {})
    {
        auto window = std::make_unique<ui::MainWindow>(m_settings.get());
        window->resize(1280, 800);
        window->show();
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        target.lintProfile = profile;
        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        window->connectTo(target);
        if (!finished.wait(60000))
            return nullptr;
        return window;
    }

    static std::uint64_t rootFindings(const ui::MainWindow& window)
    {
        return window.browser()->treeModel()->totalsOf(keyspace::Keyspace::root()).findingCount();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        const auto set = [&](const QByteArray& key) { commands.push_back({"SET", key, "v"}); };
        for (int i = 0; i < 40; ++i)
            set("user:" + QByteArray::number(i) + ":profile"); // clean
        for (int i = 0; i < 5; ++i)
            set("User:" + QByteArray::number(i)); // uppercase
        for (int i = 0; i < 4; ++i)
            set("user_" + QByteArray::number(i) + "_profile"); // delimiter, and a variant of user:<id>:profile
        for (int i = 0; i < 6; ++i)
            set("session:" + QByteArray::number(1000 + i)); // missing-ttl: one pattern, the panel's first rule
        for (int i = 0; i < 10; ++i)
            set("order:" + QByteArray::number(i) + ":detail");
        for (int i = 10; i < 13; ++i)
            set("order:" + QByteArray::number(i) + ":info"); // synonym-siblings
        for (int i = 0; i < 5; ++i)
            set("prod:thing:" + QByteArray::number(i));
        for (int i = 0; i < 2; ++i)
            set("staging:thing:" + QByteArray::number(i)); // env-prefixes
        for (int i = 0; i < 150; ++i)                      // expiry-avalanche: one TTL for all
            commands.push_back({"SET", "cache:page:" + QByteArray::number(i), "v", "EX", "7200"});
        // A BullMQ queue named in camelCase: the library's layout, exempt from the naming rules.
        set("bull:emailQueue:id");
        commands.push_back({"RPUSH", "bull:emailQueue:wait", "3"});
        commands.push_back({"HSET", "bull:emailQueue:meta", "opts.maxLenEvents", "10000"});
        for (int i = 1; i <= 3; ++i)
            commands.push_back({"HSET", "bull:emailQueue:" + QByteArray::number(i), "name", "welcomeMail"});
        set("key1");                                // placeholder-name
        set("log:2025:01:15:10:30:45:request:abc"); // deep-nesting, timestamp-in-key: two rules on one key
        commands.push_back({"SET", "blob:big", QByteArray(20 * 1024, 'x')}); // big-string
        std::vector<QByteArray> push{"RPUSH", "feed:big"};                   // big-collection, known after the scan
        for (int i = 0; i < 6000; ++i)
            push.push_back("item-" + QByteArray::number(i));
        commands.push_back(std::move(push));
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    // Every row's findings equal the CLI's findings of the keys below it, for every node of the tree.
    void countsPerNodeEqualTheCli()
    {
        const CliFindings cli = cliFindings();
        QVERIFY(cli.byRule.count("big-collection"));
        QVERIFY(cli.byRule.count("expiry-avalanche"));
        QVERIFY(cli.byRule.count("synonym-siblings"));
        const std::unique_ptr<ui::MainWindow> window = scannedWindow();
        QVERIFY(window);
        // big-collection comes with the lengths asked after the scan.
        QTRY_COMPARE_WITH_TIMEOUT(rootFindings(*window), cli.total, 10000);

        const keyspace::Keyspace& store = window->session()->keyspace();
        int nodesChecked = 0;
        for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
            const QByteArray path = store.path(node);
            const QByteArray prefix = store.hasChildren(node) ? store.namespacePrefix(node) : QByteArray();
            std::uint64_t expected = 0;
            for (const auto& [key, rule] : cli.keyAndRule) {
                if ((store.isKey(node) && key == path) || (!prefix.isEmpty() && key.startsWith(prefix)))
                    ++expected;
            }
            QCOMPARE(window->browser()->treeModel()->totalsOf(node).findingCount(), expected);
            ++nodesChecked;
        }
        QVERIFY(nodesChecked > 200);

        // The panel says the same, rule by rule.
        ui::FindingsPanel* panel = window->findingsPanel();
        QTreeWidget* list = panel->list();
        QCOMPARE(std::size_t(list->topLevelItemCount()), cli.byRule.size());
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = list->topLevelItem(i);
            const QByteArray rule = item->text(0).toUtf8();
            QCOMPARE(item->text(2).remove(u',').toULongLong(), cli.byRule.at(rule));
        }
        QVERIFY(panel->headingText().contains(QStringLiteral("profile <b>default</b>")));

        // Rule → pattern: the patterns and their counts are the CLI's groups, and add up to the rule's count.
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = list->topLevelItem(i);
            const QByteArray rule = item->text(0).toUtf8();
            std::uint64_t keys = 0;
            for (int p = 0; p < item->childCount(); ++p) {
                const QTreeWidgetItem* pattern = item->child(p);
                const std::uint64_t count = pattern->text(2).remove(u',').toULongLong();
                keys += count;
                const QByteArray text = pattern->text(0).section(QStringLiteral("  ["), 0, 0).toUtf8();
                QVERIFY2(cli.groups.count({rule, text}), QByteArray(rule + " " + text).constData());
                QCOMPARE(count, cli.groups.at({rule, text}));
            }
            QCOMPARE(keys, cli.byRule.at(rule));
        }
        QVERIFY2(panel->headingText().contains(QStringLiteral(" in <b>%1</b> pattern").arg(cli.patterns)),
                 qPrintable(panel->headingText()));
    }

    // The tree tags the row where a library's layout starts, its details say so, and its keys have no
    // naming findings (the CLI agrees: countsPerNodeEqualTheCli).
    void libraryRowsAreLabelled()
    {
        const std::unique_ptr<ui::MainWindow> window = scannedWindow();
        QVERIFY(window);
        models::KeyTreeModel* model = window->browser()->treeModel();
        const keyspace::Keyspace& store = window->session()->keyspace();
        const QModelIndex bull = model->indexOfNode(store.find("bull"));
        QTRY_COMPARE(bull.data(models::KeyTreeModel::LibraryRole).toString(), QStringLiteral("bullmq"));
        QCOMPARE(
            model->indexOfNode(store.find("bull:emailQueue:wait")).data(models::KeyTreeModel::LibraryRole).toString(),
            QStringLiteral("bullmq"));
        QCOMPARE(model->indexOfNode(store.find("user")).data(models::KeyTreeModel::LibraryRole).toString(), QString());
        QCOMPARE(model->totalsOf(store.find("bull")).findingCount(), std::uint64_t(0));
        QVERIFY(bull.data(Qt::ToolTipRole).toString().contains(QStringLiteral("BullMQ")));
    }

    // Without the catalogue (Scan > Name libraries from the catalogue, a setting kept like the others) no row is
    // labelled and the library's keys are judged as any others; either way the Findings panel says what each finding
    // rests on.
    void catalogueSettingAndEvidence()
    {
        const std::unique_ptr<ui::MainWindow> window = scannedWindow();
        QVERIFY(window);
        QAction* catalogue = nullptr;
        for (QAction* menu : window->menuBar()->actions()) {
            for (QAction* action : menu->menu() ? menu->menu()->actions() : QList<QAction*>()) {
                if (action->text() == QStringLiteral("Name &libraries from the catalogue"))
                    catalogue = action;
            }
        }
        QVERIFY(catalogue && catalogue->isCheckable() && catalogue->isChecked());

        // The session keys' missing-ttl says why: the word of their namespace.
        ui::FindingsPanel* panel = window->findingsPanel();
        const auto missingTtlTips = [&] {
            panel->selectRule(int(lint::ruleIndex(*lint::findRule("missing-ttl"))));
            QString tips;
            std::vector<QTreeWidgetItem*> items;
            if (panel->list()->currentItem())
                items.push_back(panel->list()->currentItem());
            while (!items.empty()) {
                QTreeWidgetItem* item = items.back();
                items.pop_back();
                tips += item->toolTip(0) + QLatin1Char('\n');
                for (int i = 0; i < item->childCount(); ++i)
                    items.push_back(item->child(i));
            }
            return tips;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(missingTtlTips().contains(QStringLiteral("Evidence: word: session")),
                                  qPrintable(missingTtlTips()), 10000);

        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        catalogue->setChecked(false); // scans again
        QVERIFY(finished.wait(60000));
        QCOMPARE(m_settings->value(QStringLiteral("lint/libraryCatalogue")).toBool(), false);
        models::KeyTreeModel* model = window->browser()->treeModel();
        const keyspace::Keyspace& store = window->session()->keyspace();
        QTRY_VERIFY_WITH_TIMEOUT(!window->session()->isJudging(), 10000);
        QCOMPARE(model->indexOfNode(store.find("bull")).data(models::KeyTreeModel::LibraryRole).toString(), QString());
        QVERIFY(model->totalsOf(store.find("bull")).findingCount() > 0); // `emailQueue` is uppercase now
        catalogue->setChecked(true);                                     // as the other tests expect it
        QVERIFY(finished.wait(60000));
        QCOMPARE(m_settings->value(QStringLiteral("lint/libraryCatalogue")).toBool(), true);
    }

    void filterShowsKeysWithFindings()
    {
        const CliFindings cli = cliFindings();
        std::set<QByteArray> keysWithFindings;
        std::set<QByteArray> uppercaseKeys;
        for (const auto& [key, rule] : cli.keyAndRule) {
            keysWithFindings.insert(key);
            if (rule == "uppercase")
                uppercaseKeys.insert(key);
        }
        const std::unique_ptr<ui::MainWindow> window = scannedWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(rootFindings(*window), cli.total, 10000);
        ui::FindingsPanel* panel = window->findingsPanel();
        KeyTreeModel* model = window->browser()->treeModel();

        panel->treeFilterBox()->setCurrentIndex(1); // keys with findings
        QVERIFY(model->findingsFilter().enabled);
        QCOMPARE(model->filterMatches(), std::uint64_t(keysWithFindings.size()));
        QVERIFY(!model->indexOfNode(window->session()->keyspace().find("user:1:profile")).isValid());
        QVERIFY(model->indexOfNode(window->session()->keyspace().find("User:1")).isValid());

        panel->selectRule(int(lint::ruleIndex(*lint::findRule("uppercase"))));
        panel->treeFilterBox()->setCurrentIndex(2); // keys of the selected rule
        QCOMPARE(model->filterMatches(), std::uint64_t(uppercaseKeys.size()));
        QVERIFY(!model->indexOfNode(window->session()->keyspace().find("key1")).isValid());

        // With a glob on top: both must hold.
        window->browser()->setFilterText(QStringLiteral("User:1*"));
        QCOMPARE(model->filterMatches(), std::uint64_t(1));
        window->browser()->setFilterText(QString());
        panel->treeFilterBox()->setCurrentIndex(0);
        QVERIFY(!model->findingsFilter().enabled);
        QVERIFY(model->indexOfNode(window->session()->keyspace().find("user:1:profile")).isValid());
    }

    void activatingAnExampleSelectsItsKey()
    {
        const std::unique_ptr<ui::MainWindow> window = scannedWindow();
        QVERIFY(window);
        ui::FindingsPanel* panel = window->findingsPanel();
        panel->selectRule(int(lint::ruleIndex(*lint::findRule("placeholder-name"))));
        QTreeWidgetItem* rule = panel->list()->currentItem();
        QVERIFY(rule);
        QCOMPARE(rule->text(0), QStringLiteral("placeholder-name"));
        rule->setExpanded(true);
        QCOMPARE(rule->childCount(), 1); // one pattern, with its one key
        QTreeWidgetItem* pattern = rule->child(0);
        QCOMPARE(pattern->text(0), QStringLiteral("key1"));
        QCOMPARE(pattern->childCount(), 1);
        pattern->setExpanded(true);
        panel->list()->setCurrentItem(pattern->child(0));
        panel->list()->setFocus();
        QTest::keyClick(panel->list(), Qt::Key_Return);
        const QModelIndex current = window->browser()->tree()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(window->session()->keyspace().path(window->browser()->treeModel()->nodeOf(current)),
                 QByteArray("key1"));
    }

    void profilePerConnection()
    {
        const CliFindings strict = cliFindings(QStringLiteral("strict"));
        QVERIFY(strict.byRule.count("mid-key-id"));
        const std::unique_ptr<ui::MainWindow> window = scannedWindow(QStringLiteral("strict"));
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(rootFindings(*window), strict.total, 10000);
        QVERIFY(window->findingsPanel()->headingText().contains(QStringLiteral("profile <b>strict</b>")));

        // A profile file that does not load: said in the window, and the default is used.
        const std::unique_ptr<ui::MainWindow> fallback = scannedWindow(QStringLiteral("/nonexistent/acme.json"));
        QVERIFY(fallback);
        QCOMPARE(fallback->session()->lintProfile().name, QStringLiteral("default"));
        bool said = false;
        for (const QLabel* label : fallback->findChildren<QLabel*>())
            said |= label->isVisible() && label->text().contains(QStringLiteral("/nonexistent/acme.json"));
        QVERIFY(said);
    }

    // One end-of-scan step for both: with STRLEN denied, the big string's length cannot be read after the scan. The
    // CLI's report says so in a notice; the window's Findings panel says the same words (it said nothing before), and
    // every notice the panel shows is one the CLI's report has.
    void noticesAgreeWithTheCli()
    {
        test::PlainClient admin(m_server.port());
        admin.command({"ACL", "SETUSER", "nostrlen", "on", ">pw", "~*", "+@all", "-strlen"});
        const auto run =
            test::runCli({QStringLiteral("lint"), QStringLiteral("-p"), QString::number(m_server.port()),
                          QStringLiteral("--user"), QStringLiteral("nostrlen"), QStringLiteral("-a"),
                          QStringLiteral("pw"), QStringLiteral("--no-auth-warning"), QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--fail-on"), QStringLiteral("never")});
        QCOMPARE(run.exitCode, 0);
        QStringList cliNotices;
        for (const QJsonValue& notice : QJsonDocument::fromJson(run.out).object()[QStringLiteral("notices")].toArray())
            cliNotices << notice.toString();
        const QString unchecked = QStringLiteral("big-string and big-collection were not checked on 1 of 2 keys");
        QVERIFY2(cliNotices.join(u'|').contains(unchecked), qPrintable(cliNotices.join(u'|')));

        auto window = std::make_unique<ui::MainWindow>(m_settings.get());
        window->resize(1280, 800);
        window->show();
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        target.options.user = "nostrlen";
        target.options.password = "pw";
        target.options.hasPassword = true;
        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        window->connectTo(target);
        QVERIFY(finished.wait(60000));
        QTRY_VERIFY(!window->session()->isRunning());
        const QStringList guiNotices = window->session()->endOfScan()->notices();
        QVERIFY2(guiNotices.join(u'|').contains(unchecked), qPrintable(guiNotices.join(u'|')));
        for (const QString& notice : guiNotices)
            QVERIFY2(cliNotices.contains(notice),
                     qPrintable(notice + QStringLiteral(" | CLI: ") + cliNotices.join(u'|')));
        // And the panel shows them.
        QTRY_VERIFY(window->findingsPanel()->noticesText().contains(unchecked));
        // The lengths that could be read count as the CLI's: the 6,000-element list is big-collection in both.
        std::uint64_t bigCollections = 0;
        for (const lint::RuleSummary& summary : window->session()->linter().summaries())
            bigCollections += summary.rule->id == QByteArrayView("big-collection") ? summary.findings : 0;
        QCOMPARE(bigCollections, std::uint64_t(1));
    }

    // A profile chosen while the namespace-level rules of a finished scan run on their worker thread: they
    // are abandoned and run again with it, and the counts are the new profile's.
    void profileChangedWhileTheRulesRun()
    {
        const CliFindings strict = cliFindings(QStringLiteral("strict"));
        auto window = std::make_unique<ui::MainWindow>(m_settings.get());
        window->show();
        models::ScanSession* session = window->session();
        bool changed = false;
        // The last publish comes just before the rules start: an event posted then runs while they do.
        connect(session, &models::ScanSession::published, this, [&] {
            QTimer::singleShot(0, this, [&] {
                if (!changed && session->isJudging()) {
                    changed = true;
                    QString error;
                    session->setLintProfile(*lint::loadProfile(QStringLiteral("strict"), &error));
                }
            });
        });
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        window->connectTo(target);
        QVERIFY(finished.wait(60000));
        QVERIFY(changed);
        QCOMPARE(finished.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(rootFindings(*window), strict.total, 10000);
        QCOMPARE(session->lintProfile().name, QStringLiteral("strict"));
    }

    // The legend explains the findings colours and every rule, in the rule's own words.
    void legendExplainsEveryRule()
    {
        ui::LegendDialog legend;
        QString text;
        for (const QLabel* label : legend.findChildren<QLabel*>())
            text += label->text() + u'\n';
        for (const lint::RuleInfo& rule : lint::allRules()) {
            QVERIFY2(text.contains(QLatin1String(rule.id)), rule.id);
            QVERIFY2(text.contains(QString::fromUtf8(rule.rationale).toHtmlEscaped()), rule.id);
        }
        QVERIFY(text.contains(QStringLiteral("Findings, errors")));
    }

    // --view renders each view (tree, patterns, charts, treemap, findings): every image is drawn (it differs from a
    // window that shows nothing) and differs from the others; --select takes a pattern, and a namespace with its
    // trailing delimiter as keylens-cli prints it.
    void screenshotOfEveryView()
    {
        QTemporaryDir dir;
        ui::MainWindow blank(m_settings.get());
        blank.resize(1100, 700);
        blank.show();
        QVERIFY(QTest::qWaitForWindowExposed(&blank));
        const QImage empty = blank.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const auto differingShare = [](const QImage& a, const QImage& b) {
            if (a.size() != b.size())
                return 1.0;
            std::uint64_t differing = 0;
            for (int y = 0; y < a.height(); ++y)
                for (int x = 0; x < a.width(); ++x)
                    differing += a.pixel(x, y) != b.pixel(x, y);
            return double(differing) / double(a.width() * a.height());
        };
        std::map<QString, QImage> images;
        for (const auto& [view, select] : std::vector<std::pair<QString, QString>>{
                 {QStringLiteral("tree"), QStringLiteral("bull:")},
                 {QStringLiteral("patterns"), QStringLiteral("user:<int>:profile")},
                 {QStringLiteral("charts"), QStringLiteral("user")},
                 {QStringLiteral("treemap"), QString()},
                 {QStringLiteral("findings"), QString()}}) {
            const QString file = dir.filePath(view + QStringLiteral(".png"));
            QStringList arguments{m_server.uri(),
                                  QStringLiteral("--size"),
                                  QStringLiteral("1100x700"),
                                  QStringLiteral("--screenshot"),
                                  file,
                                  QStringLiteral("--view"),
                                  view};
            if (!select.isEmpty())
                arguments << QStringLiteral("--select") << select;
            QProcess keylens;
            test::startGui(keylens, arguments, dir.path());
            QVERIFY(keylens.waitForFinished(60000));
            QVERIFY2(keylens.exitCode() == 0, keylens.readAllStandardError().constData());
            const QImage image = QImage(file).convertToFormat(QImage::Format_RGB32);
            QVERIFY2(!image.isNull(), qPrintable(view));
            QCOMPARE(image.size(), empty.size());
            const double share = differingShare(image, empty);
            QVERIFY2(share > 0.05, qPrintable(view + QStringLiteral(": %1").arg(share)));
            images[view] = image;
        }
        QVERIFY(differingShare(images[QStringLiteral("tree")], images[QStringLiteral("patterns")]) > 0.01);
        QVERIFY(differingShare(images[QStringLiteral("tree")], images[QStringLiteral("findings")]) > 0.01);
        QVERIFY(differingShare(images[QStringLiteral("tree")], images[QStringLiteral("charts")]) > 0.01);
        QVERIFY(differingShare(images[QStringLiteral("charts")], images[QStringLiteral("treemap")]) > 0.01);

        QProcess keylens;
        test::startGui(keylens,
                       {m_server.uri(), QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("none.png")),
                        QStringLiteral("--view"), QStringLiteral("patterns"), QStringLiteral("--select"),
                        QStringLiteral("nosuch:<int>")},
                       dir.path());
        QVERIFY(keylens.waitForFinished(60000));
        QCOMPARE(keylens.exitCode(), 1);
        QVERIFY(keylens.readAllStandardError().contains("nosuch:<int>"));
    }

    void screenshotOfTheFindingsView()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("findings.png"));
        QProcess keylens;
        test::startGui(keylens,
                       {m_server.uri(), QStringLiteral("--profile"), QStringLiteral("strict"),
                        QStringLiteral("--screenshot"), file, QStringLiteral("--view"), QStringLiteral("findings")},
                       dir.path());
        QVERIFY(keylens.waitForFinished(60000));
        QCOMPARE(keylens.exitCode(), 0);
        const QImage image(file);
        QVERIFY(!image.isNull());
        // The first rule is open in the panel (its one pattern), the next rules' severity dots drawn below it, in the
        // lower third.
        int dots = 0;
        for (int y = image.height() * 2 / 3; y < image.height(); ++y)
            for (int x = 0; x < image.width() / 2; ++x)
                dots += image.pixelColor(x, y) == QColor(0xe0, 0x8a, 0x00) ||
                        image.pixelColor(x, y) == QColor(0xd6, 0x45, 0x45);
        QVERIFY2(dots > 20, qPrintable(QString::number(dots)));

        for (const QStringList& arguments :
             {QStringList{m_server.uri(), QStringLiteral("--profile"), QStringLiteral("nosuch")},
              QStringList{m_server.uri(), QStringLiteral("--view"), QStringLiteral("findings")}}) {
            test::startGui(keylens, arguments, dir.path());
            QVERIFY(keylens.waitForFinished(30000));
            QCOMPARE(keylens.exitCode(), 2);
        }
    }
};

QTEST_MAIN(TestFindings)
#include "tst_findings.moc"
