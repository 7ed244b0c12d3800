// Netlify builds in a new container every time: without this plugin every build (each push, each pull
// request's preview) is a first build. league's cache (.league-cache/ beside content/: every file parsed,
// validated and ranked, the search index; plain data, nothing that runs) is restored before the build command
// and saved after a successful one, so a build only parses what changed: the 20-season archive builds in
// ~3.8 s instead of ~5.6 (bench/run: "warm-cache" against "cold"). The cache is safe to restore:
// league checks every entry against its sha256 digest (a new league or new templates invalidate it, a
// corrupted or crafted entry is ignored with a warning and made again), and `league build` deletes what no build has used for a day, so it stays small.
// The output folder (site/) is not kept: Netlify deploys it as it is.
const CACHE = ".league-cache";

module.exports = {
  async onPreBuild({ utils }) {
    if (await utils.cache.restore(CACHE)) {
      console.log(`league: build cache restored (${CACHE})`);
    } else {
      console.log(`league: no build cache yet (${CACHE}): this build parses every file`);
    }
  },

  // only after a build command that succeeded (a failed build keeps the cache it started with)
  async onPostBuild({ utils }) {
    if (await utils.cache.save(CACHE)) {
      console.log(`league: build cache saved (${CACHE})`);
    }
  },
};
