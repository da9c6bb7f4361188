// The filter narrows the Patterns view as it narrows the Keys view: a pattern none of whose keys match is not a row,
// a pattern's Keys cell counts its matching keys, and its members are the matching ones. The server (SCAN MATCH)
// says which keys match.
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;
using models::PatternTreeModel;

class TestPatternFilter : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    PatternTreeModel* patterns() const { return m_window->session()->patternModel(); }
    // The top-level rows' names, and the row named `name`.
    QStringList topRows() const
    {
        QStringList names;
        for (int row = 0; row < patterns()->rowCount(); ++row)
            names << patterns()->index(row, PatternTreeModel::NameColumn).data().toString();
        return names;
    }
    QModelIndex topRow(const QString& name) const
    {
        for (int row = 0; row < patterns()->rowCount(); ++row) {
            const QModelIndex index = patterns()->index(row, PatternTreeModel::NameColumn);
            if (index.data().toString() == name)
                return index;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 300; ++i)
            commands.push_back({"SET", "user:" + QByteArray::number(i) + ":profile", "p"});
        for (int i = 1; i <= 40; ++i)
            commands.push_back({"SET", "session:" + QByteArray::number(i), "s"});
        for (int i = 1; i <= 12; ++i)
            commands.push_back({"SET", "user:" + QByteArray::number(i) + ":cart", "c"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1100, 700);
        m_window->show();
        QVERIFY(test::scanInWindow(*m_window, m_server.connectionOptions()));
        m_window->browser()->showPatterns(true);
        if (!patterns()->isExact()) {
            QSignalSpy exact(patterns(), &PatternTreeModel::exactTreeReady);
            QVERIFY(exact.wait(10000));
        }
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_server.stop();
    }

    void theFilterNarrowsThePatternTree()
    {
        QTRY_VERIFY(topRow(QStringLiteral("user")).isValid() && topRow(QStringLiteral("session")).isValid());
        test::PlainClient client(m_server.port());
        const auto matching = std::uint64_t(client.allKeys("session*").size());
        QCOMPARE(matching, std::uint64_t(40));

        m_window->browser()->setFilterText(QStringLiteral("session"));
        QTRY_VERIFY2(!topRow(QStringLiteral("user")).isValid(), qPrintable(topRows().join(u' ')));
        const QModelIndex session = topRow(QStringLiteral("session"));
        QVERIFY2(session.isValid(), qPrintable(topRows().join(u' ')));
        QCOMPARE(patterns()->rowCount(), 1);
        QCOMPARE(session.siblingAtColumn(PatternTreeModel::KeysColumn).data().toString(), QString::number(matching));

        // A pattern whose keys match in part: its Keys cell says how many of them, its other child is not a row.
        const auto carts = std::uint64_t(client.allKeys("user:*:cart").size());
        m_window->browser()->setFilterText(QStringLiteral("user:*:cart"));
        QTRY_VERIFY2(!topRow(QStringLiteral("session")).isValid(), qPrintable(topRows().join(u' ')));
        const QModelIndex user = topRow(QStringLiteral("user"));
        QVERIFY(user.isValid());
        const QString keysCell = user.siblingAtColumn(PatternTreeModel::KeysColumn).data().toString();
        QVERIFY2(keysCell.startsWith(QString::number(carts) + QStringLiteral(" of ")), qPrintable(keysCell));
        m_window->browser()->patternView()->expandRecursively(user);
        QStringList children; // the patterns below `user`, at any depth
        std::vector<QModelIndex> todo{user};
        while (!todo.empty()) {
            const QModelIndex parent = todo.back();
            todo.pop_back();
            for (int row = 0; row < patterns()->rowCount(parent); ++row) {
                const QModelIndex child = patterns()->index(row, 0, parent);
                if (patterns()->kindOf(child) != PatternTreeModel::RowKind::Pattern)
                    continue;
                children << child.data().toString();
                todo.push_back(child);
            }
        }
        QVERIFY2(children.contains(QStringLiteral("cart")), qPrintable(children.join(u' ')));
        QVERIFY2(!children.contains(QStringLiteral("profile")), qPrintable(children.join(u' ')));
        test::grabAtSizes(m_window.get(), QStringLiteral("patterns-filtered"));

        m_window->browser()->setFilterText(QString());
        QTRY_VERIFY(topRow(QStringLiteral("user")).isValid() && topRow(QStringLiteral("session")).isValid());
    }
};

QTEST_MAIN(TestPatternFilter)
#include "tst_patternfilter.moc"
