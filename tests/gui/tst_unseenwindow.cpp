// The window on a keyspace that libraries Keylens does not know wrote (tests/fixtures/unseen, issue 62): each library
// follows a convention of its own, which the naming rules judge one key at a time. Folded into one finding per family
// (lint/FamilyConventions.h), the tree's Findings colour says something again: at most a fifth of its top-level rows
// are warning-coloured, as the delegate paints them and as the model says, and the window's findings are as few as
// the CLI's floors in tst_unseenfixture.
#include "CliRunner.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "lint/Linter.h"
#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"

#include <QImage>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace keylens;
using models::KeyTreeModel;

namespace {

const QString Fixture = QStringLiteral(KEYLENS_FIXTURES_DIR "/unseen/unseen.klb");

// The Findings cell as the delegate painted it: tinted warm (a warning's orange, an error's red), or not (an info's
// grey, no finding). Read below the severity dot and the count, where only the tint is.
bool paintedWarm(const QImage& viewport, const QRect& cell)
{
    const QColor pixel = viewport.pixelColor(cell.left() + 2, cell.bottom() - 1);
    return pixel.red() - pixel.blue() > 30;
}

} // namespace

class TestUnseenWindow : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        KEYLENS_START_SERVER(m_server);
        const test::CliRun restored =
            test::runCli({QStringLiteral("restore"), Fixture, QStringLiteral("-p"), QString::number(m_server.port())});
        QVERIFY2(restored.exitCode == 0, restored.err.constData());
    }

    void topLevelRowsAreMostlyNotWarnings()
    {
        ui::MainWindow window(m_settings.get());
        window.resize(1280, 800);
        window.show();
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        const models::ScanSession& session = *window.session();
        QTRY_VERIFY_WITH_TIMEOUT(session.linter().isFinished() && !session.isJudging(), 60000);

        // As few findings as the CLI's floor (tst_unseenfixture): the families' own conventions are one finding each.
        const std::uint64_t keys = session.keyspace().keyCount();
        const std::uint64_t findings = session.linter().findings();
        qInfo("%llu findings on %llu keys (%.3f a key)", qulonglong(findings), qulonglong(keys),
              double(findings) / double(keys));
        QVERIFY(keys > 10000);
        QVERIFY(double(findings) <= 0.3 * double(keys));

        KeyTreeModel* model = window.browser()->treeModel();
        QTreeView* tree = window.browser()->tree();
        const int rows = model->rowCount();
        QVERIFY(rows > 100);
        int warned = 0, painted = 0;
        for (int row = 0; row < rows; ++row)
            warned += model->index(row, KeyTreeModel::FindingsColumn).data(KeyTreeModel::WorstFindingRole).toInt() >=
                              int(lint::Severity::Warning)
                          ? 1
                          : 0;
        // Page by page, as the delegate paints them: the colour of every top-level row agrees with its severity.
        tree->collapseAll();
        tree->clearSelection();
        for (int first = 0; first < rows;) {
            tree->scrollTo(model->index(first, 0), QAbstractItemView::PositionAtTop);
            const QImage viewport = tree->viewport()->grab().toImage();
            int row = first;
            for (; row < rows; ++row) {
                const QModelIndex cell = model->index(row, KeyTreeModel::FindingsColumn);
                const QRect rect = tree->visualRect(cell);
                if (rect.isEmpty() || rect.bottom() >= viewport.height())
                    break;
                const bool warm = paintedWarm(viewport, rect);
                const bool warning = cell.data(KeyTreeModel::WorstFindingRole).toInt() >= int(lint::Severity::Warning);
                QVERIFY2(warm == warning, qPrintable(model->index(row, 0).data().toString()));
                ++painted;
            }
            QVERIFY(row > first);
            first = row;
        }
        QCOMPARE(painted, rows);
        qInfo("%d of %d top-level rows warning-coloured (%.1f%%)", warned, rows, 100.0 * warned / rows);
        QVERIFY(warned * 5 <= rows);
    }
};

QTEST_MAIN(TestUnseenWindow)
#include "tst_unseenwindow.moc"
