#include "ui/Translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QTranslator>

namespace keylens::ui {

QStringList translationDirectories()
{
    const QString binaries = QCoreApplication::applicationDirPath();
    return {QDir::cleanPath(binaries + QStringLiteral("/../share/keylens/translations")),
            binaries + QStringLiteral("/translations")};
}

QString installTranslations(const QLocale& locale, const QStringList& directories)
{
    // Owned by the application, which keeps them for its whole life.
    auto* ours = new QTranslator(QCoreApplication::instance());
    QString loaded;
    for (const QString& directory : directories) {
        if (ours->load(locale, QStringLiteral("keylens"), QStringLiteral("_"), directory)) {
            QCoreApplication::installTranslator(ours);
            loaded = ours->filePath();
            break;
        }
    }
    if (loaded.isEmpty()) {
        delete ours;
        return {};
    }
    auto* qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return loaded;
}

} // namespace keylens::ui
