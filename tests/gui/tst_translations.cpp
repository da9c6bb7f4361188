// The translation pipeline end to end: the template the build extracts with lupdate, translated by a pseudo
// translator (every text wrapped in ⟦ ⟧), compiled with lrelease, loaded for the locale as keylens loads it, and
// the window's menus, actions and tabs must all come out wrapped. A string left out of tr(), or a context that
// lupdate names differently from the class at run time, shows as an unwrapped text.
#include "ui/MainWindow.h"
#include "ui/Translations.h"

#include <QAction>
#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestTranslations : public QObject
{
    Q_OBJECT

    // Plain text as the window shows it: without the mnemonic '&'.
    static QString shown(QString text) { return text.remove(u'&'); }
    static bool wrapped(const QString& text) { return text.startsWith(u'⟦') && text.endsWith(u'⟧'); }

private Q_SLOTS:
    void templateHoldsTheWindowsStrings()
    {
        QFile ts(QStringLiteral(KEYLENS_TRANSLATION_TEMPLATE));
        QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.fileName()));
        const QString content = QString::fromUtf8(ts.readAll());
        const qsizetype messages = content.count(QStringLiteral("<message>"));
        QVERIFY2(messages > 600, qPrintable(QString::number(messages)));
        QVERIFY(content.contains(QStringLiteral("<source>Scan the server again (F5)</source>")));
    }

    void windowShowsTheLocalesTranslation()
    {
        // Pseudo-translate the template the build made.
        QFile ts(QStringLiteral(KEYLENS_TRANSLATION_TEMPLATE));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        QString content = QString::fromUtf8(ts.readAll());
        static const QRegularExpression message(
            QStringLiteral("<source>(.*?)</source>(\\s*(?:<comment>.*?</comment>\\s*)?)"
                           "<translation type=\"unfinished\"></translation>"),
            QRegularExpression::DotMatchesEverythingOption);
        content.replace(message, QStringLiteral("<source>\\1</source>\\2<translation>⟦\\1⟧</translation>"));
        content.replace(QStringLiteral("language=\"en_US\""), QStringLiteral("language=\"de_DE\""));
        QTemporaryDir dir;
        QFile pseudo(dir.filePath(QStringLiteral("keylens_de.ts")));
        QVERIFY(pseudo.open(QIODevice::WriteOnly));
        pseudo.write(content.toUtf8());
        pseudo.close();
        QProcess lrelease;
        lrelease.start(QStringLiteral(KEYLENS_LRELEASE), {QStringLiteral("-silent"), pseudo.fileName()});
        QVERIFY(lrelease.waitForFinished(60000));
        QCOMPARE(lrelease.exitCode(), 0);

        // A locale with no translation leaves the window in English.
        QVERIFY(ui::installTranslations(QLocale(QLocale::Japanese), {dir.path()}).isEmpty());
        const QString loaded = ui::installTranslations(QLocale(QLocale::German, QLocale::Germany), {dir.path()});
        QCOMPARE(loaded, dir.filePath(QStringLiteral("keylens_de.qm")));

        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        QStringList untranslated;
        int checked = 0;
        for (QAction* menu : window.menuBar()->actions()) {
            ++checked;
            if (!wrapped(shown(menu->text())))
                untranslated += menu->text();
            for (QAction* action : menu->menu()->actions()) {
                if (action->isSeparator() || action->text().isEmpty())
                    continue;
                ++checked;
                if (!wrapped(shown(action->text())))
                    untranslated += action->text();
            }
        }
        for (QTabWidget* tabs : window.findChildren<QTabWidget*>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                ++checked;
                if (!wrapped(shown(tabs->tabText(i))))
                    untranslated += tabs->tabText(i);
            }
        }
        QVERIFY2(checked > 30, qPrintable(QString::number(checked)));
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QStringLiteral(" | "))));
        QCOMPARE(window.windowTitle(), QStringLiteral("⟦Keylens⟧"));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
