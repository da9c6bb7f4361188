// The window reads an RDB file as it scans a server (File > Open RDB file…, `keylens dump.rdb`): the tree holds the
// file's keys, the status line says how the reading went, and a damaged file shows the keys before the damage and
// says where it is.
#include "models/ConnectionTarget.h"
#include "models/KeyTreeModel.h"
#include "models/LiveSession.h"
#include "models/ScanSession.h"
#include "ui/MainWindow.h"

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestRdbWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QString fixture(const char* name)
    {
        return QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/") + QLatin1String(name);
    }

private Q_SLOTS:
    void readsAFileAndAFileCutShort()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        settings.setValue(QStringLiteral("scan/followLive"), true); // a file has nothing to follow: no bar, no error
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(models::ConnectionTarget::offlineFile(fixture("redis_encodings.rdb")));
        QVERIFY(finished.wait(20000));
        const keyspace::Keyspace& store = window.session()->keyspace();
        QCOMPARE(store.keyCount(), 13u);
        QVERIFY(store.find("zset_zipped") != keyspace::InvalidNode);
        QVERIFY(window.session()->summary()->memoryEstimated);
        QVERIFY2(window.statusText().contains(QLatin1String("13 keys")), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains(QLatin1String("estimated")), qPrintable(window.statusText()));
        QCOMPARE(window.live()->state(), models::LiveSession::State::Off);

        // Cut in the middle: the keys before the cut, and where it is.
        QFile whole(fixture("redis_encodings.rdb"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray bytes = whole.readAll();
        const QString cut = m_dir.filePath(QStringLiteral("cut.rdb"));
        QFile part(cut);
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write(bytes.left(bytes.size() / 2));
        part.close();
        window.connectTo(models::ConnectionTarget::offlineFile(cut));
        QVERIFY(finished.wait(20000));
        const std::uint64_t partial = window.session()->keyspace().keyCount();
        QVERIFY(partial > 0 && partial < 13);
        QVERIFY(window.session()->summary()->error);
        QVERIFY2(window.statusText().contains(QLatin1String("damaged at byte")), qPrintable(window.statusText()));
    }
};

QTEST_MAIN(TestRdbWindow)
#include "tst_rdbwindow.moc"
