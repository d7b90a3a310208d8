// main.ts -- placeholder until the table lands (next step).
const app = document.getElementById('app');
if (app) app.textContent = 'Scopa';
