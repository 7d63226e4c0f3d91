// An LMS package of one figure: a SCORM 1.2 (or 2004) zip that any LMS can import. It holds
//   imsmanifest.xml   at the root: one SCO, launched at embed.html
//   embed.html        the iframe embed page, with the figure, its settings and data-lms="scorm12"
//                     (or "scorm2004") on its <html> (embed.js reads them; lib/lms/scorm.js
//                     talks to the LMS)
//   …                 every file that page loads (script, styles, the core's glue and wasm,
//                     the icon), and the measured figure's Worker when that is the figure
// No inline script or style: the page keeps its own strict Content-Security-Policy.
// Pure: it is handed the files' bytes, so node (scripts/build-dist.mjs, for dist/lms/) and the
// browser (lms-package.js, for the toolbar) build the same package.

import { strToU8, zipSync } from 'fflate';

const escapeXml = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The files embed.html loads from its own folder (src= and href= without a scheme or path). */
export function embedFiles(embedHtml) {
  const names = new Set();
  const withoutComments = embedHtml.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/\s(?:src|href)="([^"]+)"/g)) {
    const name = match[1];
    if (/^[\w.-]+\.(?:js|mjs|css|wasm|svg|png)$/.test(name)) names.add(name);
  }
  return [...names];
}

/** The Worker file a bundle starts, by name (hashed in dist/), or null. */
export function workerFile(bundleText) {
  return /measured-worker(?:\.[0-9a-f]{10})?\.js/.exec(bundleText)?.[0] ?? null;
}

/** The launch page: embed.html that names its figure, settings and presentation itself. */
export function launchPage(embedHtml, launch, version = 'scorm12') {
  const tag = /<html\b[^>]*>/i;
  if (!tag.test(embedHtml)) throw new Error('embed.html has no <html> tag');
  const search = new URLSearchParams(launch).toString();
  // The pictures for frames that cannot run scripts are not in the package (an LMS runs them).
  return embedHtml
    .replace(/\s*<noscript><link rel="stylesheet" href="pictures\/[^"]*"><\/noscript>/, '')
    .replace(/\s*<figure id="picture-[^"]*" class="noscript-picture">[\s\S]*?<\/figure>/g, '')
    .replace(tag, (open) => `${open.slice(0, -1)} data-lms="${version}" data-launch="${escapeXml(search)}">`);
}

/** imsmanifest.xml (SCORM 2004 4th edition) for one SCO at embed.html made of `files`. */
export function scorm2004Manifest({ identifier, title, files }) {
  const fileLines = files.map((name) => `      <file href="${escapeXml(name)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${escapeXml(identifier)}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="attention-lab">
    <organization identifier="attention-lab">
      <title>${escapeXml(title)}</title>
      <item identifier="figure" identifierref="figure-sco">
        <title>${escapeXml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="figure-sco" type="webcontent" adlcp:scormType="sco" href="embed.html">
${fileLines}
    </resource>
  </resources>
</manifest>
`;
}

/** imsmanifest.xml (SCORM 1.2) for one SCO at embed.html made of `files`. */
export function scormManifest({ identifier, title, files }) {
  const fileLines = files.map((name) => `      <file href="${escapeXml(name)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${escapeXml(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="attention-lab">
    <organization identifier="attention-lab">
      <title>${escapeXml(title)}</title>
      <item identifier="figure" identifierref="figure-sco" isvisible="true">
        <title>${escapeXml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="figure-sco" type="webcontent" adlcp:scormtype="sco" href="embed.html">
${fileLines}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * The names of the files the package needs besides embed.html, given embed.html's text and a
 * reader of text files (for the bundle that may start a Worker).
 */
export async function packageFiles({ embedHtml, figureName, readText }) {
  const names = embedFiles(embedHtml);
  if (figureName === 'measured') {
    const bundle = names.find((name) => /^embed(\.[0-9a-f]{10})?\.js$/.test(name));
    const worker = bundle ? workerFile(await readText(bundle)) : null;
    if (worker) names.push(worker);
  }
  return names;
}

/**
 * The package, { name, bytes }: figureName, title (the manifest's), settings (the figure's
 * settings as its link spells them, { tau: '0.5' }), page (the full page the figure's links
 * point to, or null), embedHtml (embed.html's text), files (Map of name → Uint8Array, every
 * name packageFiles gave) and version ('scorm12', the default, or 'scorm2004').
 */
export function scormPackage({ figureName, title, settings = {}, page = null, embedHtml, files, version = 'scorm12' }) {
  const launch = { figure: figureName, ...settings, toolbar: 'off' };
  if (page) launch.page = String(page);
  const entries = { 'embed.html': strToU8(launchPage(embedHtml, launch, version)) };
  for (const [name, bytes] of files) entries[name] = bytes;
  const names = Object.keys(entries);
  const manifest = (version === 'scorm2004' ? scorm2004Manifest : scormManifest)({ identifier: `attention-lab-${figureName}`, title, files: names });
  // Text compresses; the wasm a little; the order puts the manifest first, where LMSs look.
  const zip = zipSync({ 'imsmanifest.xml': strToU8(manifest), ...entries }, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') });
  return { name: `attention-lab-${figureName}-${version}.zip`, bytes: zip };
}
