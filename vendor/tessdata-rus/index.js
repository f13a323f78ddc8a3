const path = require('path');

module.exports = {
  code: 'rus',
  gzip: true,
  langPath: path.join(__dirname, '4.1.0_fast'),
};
