// Mocha settings. `npx mocha` runs every compiled test; `npx mocha dist/test/x/y.test.js`
// runs just the files named (a spec in a config file would otherwise be added to them).
const named = process.argv.slice(2).some((a) => /\.test\.js$/.test(a));
module.exports = {
  ...(named ? {} : { spec: ['dist/test/**/*.test.js'] }),
  timeout: 30000,
  exit: true,
  reporter: 'spec',
};
